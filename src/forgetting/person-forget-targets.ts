/**
 * @module What `POST /forget { person }` reaches: every journaled message of every account linked to the
 * person (and the companion's replies in their DMs), in every source, and, asked with `include_unsourced`,
 * SillyTavern's points whose speakers name one of the person's personas.
 */
import { readExactHolders, withNormalSpellings } from '../journal/account-spelling.js';
import type { ForgetTarget } from '../journal/forget-journal.js';
import type { Journal } from '../journal/journal.js';
import type { PersonRow } from '../journal/journal-people.js';
import type { PointStore, StoredPointId } from '../store/point-store.js';
import { unsourcedPoints } from '../store/store-filters.js';

const DISCORD_PREFIX = 'discord:';
const DISCORD_SOURCE = 'discord';
/** Points read per page while looking for a persona's SillyTavern points. */
const PAGE = 256;

/**
 * The person's messages, each once, as `accountOfMessage` (journal/people-rows.ts) reads a row where it can: a
 * bare id saved by Discord's recorder (source `discord`) is that Discord user's, a bare id elsewhere is the
 * account of that bare id. A Discord account (`discord:<id>`) also takes its bare id in the other sources
 * (the Hermes plugin on Discord sends `discord_user_id`, which the journal keeps bare) unless that bare id is
 * another person's linked account: forgetting Anna must never delete Bob's messages. A persona is found by the
 * name, with no user id.
 */
export async function findPersonTargets(
  journal: Journal,
  bot: string,
  person: PersonRow,
): Promise<ForgetTarget[]> {
  const found = new Map<string, ForgetTarget>();
  const add = (targets: readonly ForgetTarget[]) => {
    for (const target of targets) found.set(`${target.source}\u0000${target.id}`, target);
  };
  const ownedElsewhere = async (value: string) => {
    const owner = await journal.people.personOf(bot, { kind: 'user', value });
    return owner !== undefined && owner.id !== person.id;
  };
  // An account stored in an older spelling (`Discord:555`) is forgotten under its spelling today too, unless
  // another person holds that spelling exactly: then those messages are theirs.
  const holderOf = await readExactHolders(journal.people, bot, person);
  for (const account of withNormalSpellings(person.accounts, holderOf)) {
    if (account.kind === 'persona') {
      add(await journal.forgetting.findMatching(bot, { field: 'persona', value: account.value }));
      continue;
    }
    const exact = await journal.forgetting.findMatching(bot, { field: 'userId', value: account.value });
    // A bare id in Discord's own source is `discord:<id>`, another account than this bare one.
    add(account.value.includes(':') ? exact : exact.filter((target) => target.source !== DISCORD_SOURCE));
    if (account.value.startsWith(DISCORD_PREFIX)) {
      const bare = account.value.slice(DISCORD_PREFIX.length);
      const matches = await journal.forgetting.findMatching(bot, { field: 'userId', value: bare });
      const othersBare = await ownedElsewhere(bare);
      add(othersBare ? matches.filter((target) => target.source === DISCORD_SOURCE) : matches);
    }
  }
  return [...found.values()];
}

/** The sources a person's messages sit in, sorted: a person forget needs forget rights over each. */
export function sourcesOf(targets: readonly ForgetTarget[]): string[] {
  return [
    ...new Set(targets.map((target) => target.source).filter((s): s is string => s !== undefined)),
  ].sort();
}

/** SillyTavern's points (no source) whose `speakers` list one of `personas` by exact name. */
export async function findPersonaPoints(
  store: Pick<PointStore, 'describeCollection' | 'scrollPoints'>,
  collection: string,
  personas: readonly string[],
): Promise<StoredPointId[]> {
  if (personas.length === 0 || (await store.describeCollection(collection)) === undefined) return [];
  const wanted = new Set(personas);
  const ids: StoredPointId[] = [];
  let offset: StoredPointId | undefined;
  do {
    const page = await store.scrollPoints(collection, {
      filter: unsourcedPoints(),
      limit: PAGE,
      ...(offset === undefined ? {} : { offset }),
    });
    for (const point of page.points) {
      const speakers = typeof point.payload.speakers === 'string' ? point.payload.speakers.split(',') : [];
      if (speakers.some((name) => wanted.has(name.trim()))) ids.push(point.id);
    }
    offset = page.nextOffset;
  } while (offset !== undefined);
  return ids;
}
