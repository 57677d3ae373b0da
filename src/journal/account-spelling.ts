/**
 * @module How an account is spelled today, for accounts stored before the API normalised spellings
 * (`telegram:42 `, `Discord:555`): an older build's replica, a restore or a `journal copy` may write one while the
 * service runs, and start-up's respelling (people/normalise-stored-people.ts) comes only at the next start, so
 * every lookup also matches the stored spellings normalised.
 */
import { normaliseUserId } from '../wire/people.js';
import type { AccountKey, JournalPeople } from './journal-people.js';

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

/** The id of the person holding an account spelled exactly so, if anyone does. */
export type ExactHolder = (account: AccountKey) => string | undefined;

/**
 * Each account as stored and, where it differs, as spelled today: what a lookup by messages must try. Today's
 * spelling is left out when another person holds it exactly (Zed holds `Discord:561`, Bob `discord:561`, a state
 * start-up leaves and warns about): those messages are Bob's, so Zed's names, DMs and forgetting never reach them.
 * `holderOf` with no holder for any account gives every spelling.
 */
export function withNormalSpellings(accounts: readonly AccountKey[], holderOf: ExactHolder): AccountKey[] {
  const all = new Map<string, AccountKey>();
  const add = (account: AccountKey) => all.set(accountText(account), account);
  for (const account of accounts) {
    add(account);
    const normal = normaliseAccount(account);
    const holder = holderOf(normal);
    if (holder === undefined || holder === holderOf(account)) add(normal);
  }
  return [...all.values()];
}

/** Who holds each account exactly among `people`. */
export function exactHolders(
  people: readonly { id: string; accounts: readonly AccountKey[] }[],
): ExactHolder {
  const holders = new Map<string, string>();
  for (const person of people) for (const account of person.accounts) holders.set(accountText(account), person.id);
  return (account) => holders.get(accountText(account));
}

/**
 * The exact holders that decide `person`'s spellings today: the person itself and whoever holds each of its
 * accounts' spellings today (a lookup finds an exact holder first), read without listing every person.
 */
export async function readExactHolders(
  people: Pick<JournalPeople, 'personOf'>,
  bot: string,
  person: { id: string; accounts: readonly AccountKey[] },
): Promise<ExactHolder> {
  const normals = person.accounts.map(normaliseAccount).filter((a, i) => a.value !== person.accounts[i]?.value);
  const found = await Promise.all(normals.map((account) => people.personOf(bot, account)));
  return exactHolders([person, ...found.filter((p) => p !== undefined)]);
}

/** An account's map key: its kind and its value as stored. */
export function accountText(account: AccountKey): string {
  return `${account.kind}\u0000${account.value}`;
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
