/**
 * @module The names of a bot's linked people, as the chunk writer asks for them: read from the journal and
 * kept for at most a second, so a link made on any replica names that person's next chunk within ~1 s
 * without a journal read per chunk.
 */
import type { PeopleNames } from '../chunking/memory-message.js';
import { exactHolders, withNormalSpellings } from '../journal/account-spelling.js';
import type { Journal } from '../journal/journal.js';
import type { PersonRow } from '../journal/journal-people.js';
import { accountOfMessage } from '../journal/people-rows.js';

/** How long a bot's people are kept before the journal is read again (the bound is 2 s end to end). */
export const PEOPLE_CACHE_MS = 1000;

/** `bot` → its people's names, cached per bot for `ttlMs`. */
export type PeopleNamesFor = (bot: string) => Promise<PeopleNames>;

/** Builds the lookup over the journal's people. */
export function createPeopleNames(
  journal: Pick<Journal, 'people'>,
  options: { ttlMs?: number; now?: () => number } = {},
): PeopleNamesFor {
  const ttlMs = options.ttlMs ?? PEOPLE_CACHE_MS;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { at: number; names: Promise<PeopleNames> }>();
  return (bot) => {
    const cached = cache.get(bot);
    if (cached !== undefined && now() - cached.at < ttlMs) return cached.names;
    const names = journal.people.list(bot).then(toPeopleNames);
    // A failed read is not kept: the next chunk asks the journal again.
    names.catch(() => cache.delete(bot));
    cache.set(bot, { at: now(), names });
    return names;
  };
}

/** The lookup over a list of people. */
export function toPeopleNames(people: readonly PersonRow[]): PeopleNames {
  const byAccount = new Map<string, string>();
  const personIds = new Map<string, string>();
  const holderOf = exactHolders(people);
  for (const person of people) {
    // An account stored in an older spelling (`Discord:555`) names the messages of its spelling today too,
    // unless another person holds that spelling exactly.
    for (const account of withNormalSpellings(person.accounts, holderOf)) {
      byAccount.set(`${account.kind}\u0000${account.value}`, person.name);
      if (account.kind === 'user') personIds.set(account.value, person.id);
    }
  }
  return {
    nameOf(source, userId, speakerName) {
      const account = accountOfMessage(source, userId, speakerName);
      return account === undefined ? undefined : byAccount.get(`${account.kind}\u0000${account.value}`);
    },
    nameOfDiscordUser: (id) => byAccount.get(`user\u0000discord:${id}`),
    personIdOf: (account) => personIds.get(account),
  };
}
