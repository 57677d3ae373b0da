/**
 * @module What `POST /forget { person }` reaches: every journaled message of every account linked to the
 * person (and the companion's replies in their DMs), in every source, and, asked with `include_unsourced`,
 * SillyTavern's points whose speakers name one of the person's personas.
 */
import type { ForgetTarget } from '../journal/forget-journal.js';
import type { Journal } from '../journal/journal.js';
import type { PersonRow } from '../journal/journal-people.js';
import type { PointStore, StoredPointId } from '../store/point-store.js';
import { unsourcedPoints } from '../store/store-filters.js';

const DISCORD_PREFIX = 'discord:';
/** Points read per page while looking for a persona's SillyTavern points. */
const PAGE = 256;

/**
 * The person's messages, each once. A Discord account is found as the Hermes plugin names it (`discord:<id>`)
 * and by its bare id in every source: Discord's recorder saves the bare id, and so does any client sending
 * `discord_user_id` (the Hermes plugin on Discord), which the journal keeps as sent. A forget that missed
 * those would break the promise that forget-me follows the person; a persona is found by the name, with no
 * user id.
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
  for (const account of person.accounts) {
    if (account.kind === 'persona') {
      add(await journal.forgetting.findMatching(bot, { field: 'persona', value: account.value }));
      continue;
    }
    add(await journal.forgetting.findMatching(bot, { field: 'userId', value: account.value }));
    if (account.value.startsWith(DISCORD_PREFIX)) {
      const bare = account.value.slice(DISCORD_PREFIX.length);
      add(await journal.forgetting.findMatching(bot, { field: 'userId', value: bare }));
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
