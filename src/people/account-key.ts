/**
 * @module Accounts between their wire shapes and the one stored key: `discord_user_id 1234` and `user_id
 * discord:1234` are the same account (`user`, `discord:1234`), so a person linked from Discord is the same
 * person the Hermes plugin names.
 */
import { normaliseAccount } from '../journal/account-spelling.js';
import type { AccountKey } from '../journal/journal-people.js';
import { normaliseUserId, type WireAccount } from '../wire/people.js';

/** How an account is spelled today (journal/account-spelling.ts), for the callers of this module. */
export { normaliseAccount };

const DISCORD_PREFIX = 'discord:';

/** The stored key of a wire account (already validated: exactly one non-empty field). */
export function toAccountKey(account: WireAccount): AccountKey {
  if ('discord_user_id' in account)
    return { kind: 'user', value: `${DISCORD_PREFIX}${account.discord_user_id}` };
  if ('user_id' in account) return { kind: 'user', value: account.user_id };
  return { kind: 'persona', value: account.persona };
}

/** The wire shape of a stored key: a Discord user as `discord_user_id`, as the Discord interface names it. */
export function toWireAccount(key: AccountKey): WireAccount {
  if (key.kind === 'persona') return { persona: key.value };
  return key.value.startsWith(DISCORD_PREFIX)
    ? { discord_user_id: key.value.slice(DISCORD_PREFIX.length) }
    : { user_id: key.value };
}

/** `discord:1234`, `telegram:5678`, `persona:Anna`: how an account is named in messages and errors. */
export function describeAccount(key: AccountKey): string {
  return key.kind === 'persona' ? `persona:${key.value}` : key.value;
}

/** Whether two keys are the same account. */
export function sameAccount(a: AccountKey, b: AccountKey): boolean {
  return a.kind === b.kind && a.value === b.value;
}

/** Whether two keys name one account once both are normalised (a stored spelling against a typed one). */
export function sameNormalAccount(a: AccountKey, b: AccountKey): boolean {
  return sameAccount(normaliseAccount(a), normaliseAccount(b));
}

const DISCORD_ID = /^\d+$/;

/**
 * The accounts a `speakerAliases` key covers: the alias applies to any message whose user id is the key, so
 * a bare numeric key (`1234`) is both the Discord user the recorder saves as `1234` and a client's own id
 * `1234`; a bare key that is no Discord id (`user-42`) is only the client's id. A qualified key is normalised
 * as the API spells it, and covers nothing when it names no account (`discord:abc`).
 */
export function aliasAccounts(key: string): AccountKey[] {
  const trimmed = key.trim();
  if (trimmed === '') return [];
  if (trimmed.includes(':')) {
    const normal = normaliseUserId(trimmed);
    return 'id' in normal ? [{ kind: 'user', value: normal.id }] : [];
  }
  const bare: AccountKey = { kind: 'user', value: trimmed };
  return DISCORD_ID.test(trimmed) ? [{ kind: 'user', value: `${DISCORD_PREFIX}${trimmed}` }, bare] : [bare];
}
