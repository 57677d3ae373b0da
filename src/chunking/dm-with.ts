/**
 * @module `dmWith`, the memory-pool-only payload field saying who a DM chunk is with (docs/people.md, "DM
 * privacy follows the person"): `person:<id>` when the account is linked to a person of the bot, else
 * `account:<account>` (`account:telegram:5678`). Both are prefixed so no user id a client sends (`p_…`,
 * `person:p_…`) can read as a person's value.
 */
import type { MemoryMessage, PeopleNames } from './memory-message.js';
import { userAccountOf } from './message-account.js';

/** The payload key (and the keyword index recall filters it by). */
export const DM_WITH_KEY = 'dmWith';

/** The value naming a person of the bot. */
export function personDmWith(personId: string): string {
  return `person:${personId}`;
}

/** The value naming an account linked to nobody (`discord:1234`, `telegram:5678`). */
export function accountDmWith(account: string): string {
  return `account:${account}`;
}

/**
 * Who the DM chunk of `messages` is with: the one account its people's messages came from, as its person when
 * linked. Undefined, so recall falls back to the DM's channel, when the chunk is no DM, holds only the companion's
 * replies, or a user message with no id (a persona) or from a second account (a group DM).
 */
export function findDmWith(
  messages: readonly MemoryMessage[],
  people: PeopleNames | undefined,
): string | undefined {
  if (!messages.some((message) => message.isDm === true)) return undefined;
  const accounts = new Set<string | undefined>(
    messages
      .filter((message) => message.speakerKind === 'user')
      .map((message) => userAccountOf(message.source, message.userId)),
  );
  const [account] = accounts;
  if (accounts.size !== 1 || account === undefined) return undefined;
  const person = people?.personIdOf(account);
  return person === undefined ? accountDmWith(account) : personDmWith(person);
}
