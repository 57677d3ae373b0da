/**
 * @module What a DM recall by a linked person reads of the journal (docs/people.md, "DM privacy follows the
 * person"): the DMs of the asking account and of the whole person, and the `dmWith` values that name that person
 * now. Read on every DM recall, never cached: an unlink narrows at once.
 */
import { accountDmWith, personDmWith } from '../chunking/dm-with.js';
import type { Journal } from '../journal/journal.js';
import type { AccountKey, DmChannel } from '../journal/journal-people.js';
import { readExactHolders, withNormalSpellings } from '../journal/account-spelling.js';

/** A linked account's DM scope. */
export interface PersonDms {
  /** The DM channels of the asking account itself. */
  readonly own: readonly DmChannel[];
  /** The DM channels of every account of its person (the fallback for points with no `dmWith`). */
  readonly person: readonly DmChannel[];
  /**
   * The `dmWith` values that are the person's: theirs, and each of their accounts' (a point written before the
   * link, or by a seed that renamed nothing). Undefined while a rename of the bot is left: a point may still name
   * the person for an account unlinked since, so only the journal's channels are trusted until it is done.
   */
  readonly dmWith?: readonly string[];
}

/** `account`'s DM scope in `bot`; undefined when it is linked to nobody (recall answers as without people). */
export async function readPersonDms(
  journal: Pick<Journal, 'people' | 'renames'>,
  bot: string,
  account: AccountKey,
): Promise<PersonDms | undefined> {
  const person = await journal.people.personOf(bot, account);
  if (person === undefined) return undefined;
  const [own, all, renaming] = await Promise.all([
    journal.people.dmChannels(bot, [account]),
    journal.people.dmChannels(bot, person.accounts),
    journal.renames.isRenaming(bot),
  ]);
  if (renaming) return { own, person: all };
  // Both spellings of an account stored before spellings were enforced (a message saved it as it was sent),
  // but not today's spelling when another person holds it exactly: those DMs are theirs.
  const holderOf = await readExactHolders(journal.people, bot, person);
  const accounts = withNormalSpellings(person.accounts, holderOf)
    .filter((a) => a.kind === 'user')
    .map((a) => a.value);
  return {
    own,
    person: all,
    dmWith: [...new Set([personDmWith(person.id), ...accounts.map(accountDmWith)])],
  };
}
