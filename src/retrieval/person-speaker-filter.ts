/**
 * @module `/retrieve { person }` (docs/people.md): only memories where the person speaks, i.e. whose `speakers`
 * name the person (the one name their linked accounts are written under) or one of their personas
 * (SillyTavern's points carry persona names and are never renamed).
 */
import type { BotConfig } from '../config/config-types.js';
import { ValidationError } from '../errors/memory-pool-error.js';
import type { StoreFilter } from '../store/point-store.js';
import { allOf, anyOf, isEmpty, matchText, noneOf } from '../store/store-filters.js';

/** The names a person speaks under in `bot`'s chunks; undefined when the bot has no person of that id. */
export type PersonSpeakerNames = (bot: string, id: string) => Promise<readonly string[] | undefined>;

/**
 * What `/retrieve { person }` keeps: `filter` narrows the store's search, `keeps` checks each hit, since the
 * store matches text only as a substring.
 */
export interface PersonMatch {
  readonly filter: StoreFilter;
  /** Whether one of the person's names is a whole speaker of the hit (not "Anna" inside "JoAnna"). */
  keeps(hit: { readonly speakers?: string; readonly text: string }): boolean;
}

/**
 * The match for `person`, or undefined when the request names none. An unknown id (or another bot's person)
 * is a 400 naming `person`, so a typo never reads as "this person said nothing".
 */
export async function readPersonFilter(
  names: PersonSpeakerNames | undefined,
  bot: BotConfig,
  person: string | undefined,
): Promise<PersonMatch | undefined> {
  if (person === undefined) return undefined;
  const found = names === undefined ? undefined : await names(bot.name, person);
  if (found === undefined || found.length === 0) {
    throw new ValidationError(
      'person',
      `person: the bot "${bot.name}" has no person "${person.slice(0, 80)}" (a person belongs to one bot); GET /bots/${bot.name}/people lists them`,
    );
  }
  const unique = [...new Set(found)];
  // The store matches text only as a substring (the fields have no text index), so `filter` is a superset: a
  // chunk's or SillyTavern point's `speakers` ("Anna, Mythos") holding the name, or a part's (it has a `chunkId`
  // and no speakers) "Anna: " line. `keeps` then drops "Annabelle" and "JoAnna" by whole speaker names.
  const isPart = noneOf(isEmpty('chunkId'));
  return {
    filter: anyOf(
      ...unique.map((name) => matchText('speakers', name)),
      ...unique.map((name) => allOf(isPart, matchText('text', `${name}: `))),
    ),
    keeps: (hit) => {
      const speakers =
        hit.speakers !== undefined && hit.speakers !== ''
          ? hit.speakers.split(',').map((speaker) => speaker.trim())
          : hit.text.split('\n').map((line) => /^(.*?): /.exec(line)?.[1] ?? '');
      return unique.some((name) => speakers.includes(name));
    },
  };
}
