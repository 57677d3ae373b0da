/**
 * @module Which key sources may vouch for an account (link it, ask its code, read its DMs as it): only the
 * interfaces that see that platform's users, as `people.vouchers` says (by default a Discord user from Discord
 * or Hermes, which runs on Discord too; a Telegram or Slack user only from Hermes); a persona, or a user id that
 * names no platform, only from an admin.
 */
import type { AccountKey } from '../journal/journal-people.js';

/** `people.vouchers`: platform (or `*`) → the sources that vouch for its users. */
export type Vouchers = Readonly<Record<string, readonly string[]>>;

const NOBODY: readonly string[] = [];

/**
 * The sources allowed to vouch for `account`; empty when only an admin key may (personas, and user ids that
 * name no platform: no interface can show whose they are).
 */
export function vouchingSources(account: AccountKey, vouchers: Vouchers): readonly string[] {
  if (account.kind === 'persona') return NOBODY;
  const colon = account.value.indexOf(':');
  if (colon <= 0) return NOBODY;
  // Platforms are named in lower case (config/people-schema.ts), whatever case an account spells its own in.
  const platform = account.value.slice(0, colon).toLowerCase();
  // Own keys only: a platform named `constructor` must not reach Object's prototype.
  if (Object.hasOwn(vouchers, platform)) return vouchers[platform] ?? NOBODY;
  return Object.hasOwn(vouchers, '*') ? (vouchers['*'] ?? NOBODY) : NOBODY;
}

/** Whether a key acting as `source` (undefined: none) may vouch for `account`; admins are checked by the caller. */
export function sourceMayVouch(source: string | undefined, account: AccountKey, vouchers: Vouchers): boolean {
  return source !== undefined && vouchingSources(account, vouchers).includes(source);
}
