/**
 * @module The owner's and the person's changes to a bot's people, over the journal: create, rename, link,
 * unlink, and the self-service link codes. Authorization is the caller's (src/core/operations/people-operations.ts);
 * this decides what a request means and refuses, naming the field, what it cannot do.
 */
import { ValidationError } from '../errors/memory-pool-error.js';
import type { Journal } from '../journal/journal.js';
import type { AccountKey, LinkConflict, PersonRow } from '../journal/journal-people.js';
import { isCleanText, NOT_CLEAN_TEXT } from '../wire/clean-text.js';
import { describeAccount, sameNormalAccount } from './account-key.js';
import { newPersonId } from './new-person-id.js';

/** A 409 naming the account and the person it is linked to. */
export function linkedElsewhere(field: string, conflict: LinkConflict): ValidationError {
  return new ValidationError(
    field,
    `${field}: the account ${describeAccount(conflict.account)} is already linked to ${conflict.person.name} (${conflict.person.id}); unlink it there first, or link to that person`,
    'account_linked',
    409,
  );
}

/** The person `id` of `bot`; a 400 naming `id` when the bot has none (another bot's, or none at all). */
export async function requirePerson(journal: Journal, bot: string, id: string): Promise<PersonRow> {
  // The journal (Postgres) cannot even look up text holding a NUL or a lone surrogate.
  if (!isCleanText(id)) throw new ValidationError('id', `id: ${NOT_CLEAN_TEXT}`);
  const person = await journal.people.get(bot, id);
  if (person === undefined) {
    throw new ValidationError(
      'id',
      `id: the bot "${bot}" has no person "${id.slice(0, 80)}" (a person belongs to one bot); GET /bots/${bot}/people lists them`,
    );
  }
  return person;
}

/** Creates a person; an account linked to someone else is a 409 naming them. */
export async function createPerson(
  journal: Journal,
  bot: string,
  request: { name: string; accounts: readonly AccountKey[] },
  now: number,
): Promise<PersonRow> {
  const id = newPersonId();
  await refuseNormalConflict(journal, bot, id, request.accounts, 'accounts');
  const conflict = await journal.people.create(bot, { id, ...request }, now);
  if (conflict !== undefined) throw linkedElsewhere('accounts', conflict);
  return requirePerson(journal, bot, id);
}

/** Renames and links or unlinks accounts, all or nothing. */
export async function updatePerson(
  journal: Journal,
  bot: string,
  id: string,
  change: { name?: string; add?: readonly AccountKey[]; remove?: readonly AccountKey[] },
  now: number,
): Promise<PersonRow> {
  const before = await requirePerson(journal, bot, id);
  const remove = (change.remove ?? []).map((account, i) => storedSpelling(before, account, `remove[${i}]`));
  await refuseNormalConflict(journal, bot, id, change.add ?? [], 'add');
  const result = await journal.people.update(bot, id, { ...change, remove }, now);
  if (typeof result === 'object') throw linkedElsewhere('add', result);
  if (!result) await requirePerson(journal, bot, id); // removed meanwhile: the same 400
  return requirePerson(journal, bot, id);
}

/**
 * A 409 when one of `accounts` is another person's in a spelling stored before the API normalised it
 * (`Discord:555` for `discord:555`): the journal matches spellings exactly, and a start respells such rows,
 * but until then one account must not become two people.
 */
async function refuseNormalConflict(
  journal: Journal,
  bot: string,
  id: string,
  accounts: readonly AccountKey[],
  field: string,
): Promise<void> {
  if (accounts.length === 0) return;
  for (const person of await journal.people.list(bot)) {
    if (person.id === id) continue;
    const held = accounts.find((account) => person.accounts.some((a) => sameNormalAccount(a, account)));
    if (held !== undefined) throw linkedElsewhere(field, { account: held, person });
  }
}

/**
 * The person's account as it is stored for one named in a request, compared normalised (an account linked
 * before the API normalised it, `telegram:42 `, is unlinked by its spelling today or as GET shows it); one the
 * person does not have is a 400 naming the field, never a silent success.
 */
function storedSpelling(person: PersonRow, account: AccountKey, field: string): AccountKey {
  const stored = person.accounts.find((linked) => sameNormalAccount(linked, account));
  if (stored === undefined) {
    throw new ValidationError(
      field,
      `${field}: ${describeAccount(account)} is not linked to ${person.name} (${person.id}); GET /bots/<bot>/people lists their accounts`,
    );
  }
  return stored;
}

/**
 * Links `a` and `b` as one person: the person of either, or a new one named after what `a` was last called
 * (`fallbackName`). Both linked to different people is a 409: merging two people is the owner's call.
 */
export async function linkAccounts(
  journal: Journal,
  bot: string,
  a: AccountKey,
  b: AccountKey,
  fallbackName: string,
  now: number,
): Promise<PersonRow> {
  const [ofA, ofB] = [await journal.people.personOf(bot, a), await journal.people.personOf(bot, b)];
  if (ofA !== undefined && ofB !== undefined) {
    if (ofA.id === ofB.id) return ofA;
    throw linkedElsewhere('account', { account: b, person: { id: ofB.id, name: ofB.name } });
  }
  const person = ofA ?? ofB;
  if (person === undefined) return createPerson(journal, bot, { name: fallbackName, accounts: [a, b] }, now);
  return updatePerson(journal, bot, person.id, { add: [ofA === undefined ? a : b] }, now);
}
