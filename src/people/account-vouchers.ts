/**
 * @module Which key sources may vouch for an account (link it, ask its code, read its DMs as it): only the
 * interfaces that see that platform's users. A key's word about a Discord user counts only from Discord or
 * Hermes (which runs on Discord too); a Telegram or Slack user only from Hermes; a persona only from an admin.
 */
import type { AccountKey } from '../journal/journal-people.js';

const DISCORD_PREFIX = 'discord:';
/** The defaults (hard-coded for now; a per-service `people.vouchers` key would override them). */
const DISCORD_VOUCHERS: readonly string[] = ['discord', 'hermes'];
const OTHER_PLATFORM_VOUCHERS: readonly string[] = ['hermes'];

/**
 * The sources allowed to vouch for `account`; empty when only an admin key may (personas, and user ids that
 * name no platform: no interface can show whose they are).
 */
export function vouchingSources(account: AccountKey): readonly string[] {
  if (account.kind === 'persona') return [];
  if (account.value.startsWith(DISCORD_PREFIX)) return DISCORD_VOUCHERS;
  return account.value.includes(':') ? OTHER_PLATFORM_VOUCHERS : [];
}

/** Whether a key acting as `source` (undefined: none) may vouch for `account`; admins are checked by the caller. */
export function sourceMayVouch(source: string | undefined, account: AccountKey): boolean {
  return source !== undefined && vouchingSources(account).includes(source);
}
