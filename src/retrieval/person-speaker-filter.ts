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
 * The filter for `person`, or undefined when the request names none. An unknown id (or another bot's person)
 * is a 400 naming `person`, so a typo never reads as "this person said nothing".
 */
export async function readPersonFilter(
  names: PersonSpeakerNames | undefined,
  bot: BotConfig,
  person: string | undefined,
): Promise<StoreFilter | undefined> {
  if (person === undefined) return undefined;
  const found = names === undefined ? undefined : await names(bot.name, person);
  if (found === undefined || found.length === 0) {
    throw new ValidationError(
      'person',
      `person: the bot "${bot.name}" has no person "${person.slice(0, 80)}" (a person belongs to one bot); GET /bots/${bot.name}/people lists them`,
    );
  }
  // A chunk's `speakers` is "Anna, Mythos": a name is matched as text in it (a substring: the field has no text
  // index). A part (it has a `chunkId`) carries no speakers, only its `Anna: …` lines.
  const isPart = noneOf(isEmpty('chunkId'));
  const unique = [...new Set(found)];
  return anyOf(
    ...unique.map((name) => matchText('speakers', name)),
    ...unique.map((name) => allOf(isPart, matchText('text', `${name}: `))),
  );
}
