/**
 * @module How an account is spelled today, for accounts stored before the API normalised spellings
 * (`telegram:42 `, `Discord:555`): an older build's replica, a restore or a `journal copy` may write one while the
 * service runs, and start-up's respelling (people/normalise-stored-people.ts) comes only at the next start, so
 * every lookup also matches the stored spellings normalised.
 */
import { normaliseUserId } from '../wire/people.js';
import type { AccountKey } from './journal-people.js';

/**
 * An account as it is spelled today (wire/people.ts `normaliseUserId`); a value that cannot be normalised
 * (`discord:anna#1234`) is kept, trimmed, so it can still be found and unlinked.
 */
export function normaliseAccount(key: AccountKey): AccountKey {
  const value = key.value.trim();
  if (key.kind === 'persona') return { kind: 'persona', value };
  const normal = normaliseUserId(value);
  return { kind: 'user', value: 'id' in normal ? normal.id : value };
}

/** Each account as stored and, where it differs, as spelled today: what a lookup by messages must try. */
export function withNormalSpellings(accounts: readonly AccountKey[]): AccountKey[] {
  const all = new Map<string, AccountKey>();
  for (const account of accounts.flatMap((a) => [a, normaliseAccount(a)])) {
    all.set(`${account.kind}\u0000${account.value}`, account);
  }
  return [...all.values()];
}

/**
 * A condition keeping the person_accounts rows whose `value` may not be spelled as today: a space or any character
 * outside printable ASCII (what `trim` and the colon's spacing remove), or a `discord` prefix in another case. A
 * superset, narrowed by normaliseAccount; a normal spelling rarely matches, so a lookup that misses reads
 * almost nothing. `matchesClass` is the backend's test of "holds a character outside `!`..`~`".
 */
export function maybeUnnormalSql(matchesClass: string): string {
  return `(${matchesClass} OR (lower(substr(value, 1, 7)) = 'discord' AND substr(value, 1, 8) <> 'discord:'))`;
}

/** The stored rows among `candidates` that name `account` once normalised. */
export function findNormalMatch<T extends { kind: AccountKey['kind']; value: string }>(
  candidates: readonly T[],
  account: AccountKey,
): T | undefined {
  const wanted = normaliseAccount(account);
  return candidates.find((row) => {
    const normal = normaliseAccount(row);
    return normal.kind === wanted.kind && normal.value === wanted.value;
  });
}
