/**
 * @module SillyTavern character cards: the PNG with the card's JSON base64-encoded in a `tEXt` chunk (`ccv3`
 * for V3, preferred, else `chara` for V2), or the JSON itself; V1's flat fields are read too.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../../../errors/memory-pool-error.js';

/** The persona fields a prompt is built from. */
export interface CharacterCard {
  readonly name: string;
  readonly description: string;
  readonly personality: string;
  readonly scenario: string;
  readonly systemPrompt: string;
  readonly exampleMessages: string;
  readonly postHistoryInstructions: string;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The `tEXt` chunks of a PNG, keyword → text. */
function readPngText(png: Buffer): Map<string, string> {
  const texts = new Map<string, string>();
  let offset = PNG_SIGNATURE.length;
  while (offset + 12 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'tEXt') {
      const nul = data.indexOf(0);
      if (nul > 0) texts.set(data.toString('latin1', 0, nul), data.toString('latin1', nul + 1));
    }
    if (type === 'IEND') break;
    offset += 12 + length;
  }
  return texts;
}

const field = (record: Record<string, unknown>, key: string): string =>
  typeof record[key] === 'string' ? (record[key] as string) : '';

/** Reads a card's persona from its JSON (V2/V3 under `data`, V1 flat). */
export function parseCharacterCard(json: unknown): CharacterCard {
  if (typeof json !== 'object' || json === null) throw new TypeError('a character card is a JSON object');
  const outer = json as Record<string, unknown>;
  const data = (typeof outer.data === 'object' && outer.data !== null ? outer.data : outer) as Record<
    string,
    unknown
  >;
  const name = field(data, 'name');
  if (name === '') throw new TypeError('the card has no name');
  return {
    name,
    description: field(data, 'description'),
    personality: field(data, 'personality'),
    scenario: field(data, 'scenario'),
    systemPrompt: field(data, 'system_prompt'),
    exampleMessages: field(data, 'mes_example'),
    postHistoryInstructions: field(data, 'post_history_instructions'),
  };
}

/** Loads a card file; a file that is neither a card PNG nor card JSON is a config error naming the fix. */
export function readCharacterCard(path: string): CharacterCard {
  const key = 'discord.companion.card';
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new ConfigError(
      key,
      `cannot read ${path}: ${(error as Error).message}. Point card at a card file`,
      error,
    );
  }
  try {
    if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) {
      const texts = readPngText(bytes);
      const encoded = texts.get('ccv3') ?? texts.get('chara');
      if (encoded === undefined) throw new TypeError('the PNG holds no card (no ccv3 or chara text chunk)');
      return parseCharacterCard(JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')));
    }
    return parseCharacterCard(JSON.parse(bytes.toString('utf8')));
  } catch (error) {
    throw new ConfigError(
      key,
      `${path} is not a character card: ${(error as Error).message}. Export the card from SillyTavern (PNG or JSON)`,
      error,
    );
  }
}
