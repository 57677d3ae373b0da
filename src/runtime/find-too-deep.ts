/**
 * @module Finds JSON nested deeper than a bound by scanning the raw text, iteratively: checked before parsing,
 * a deep body can reach no recursive code (validation, filters, serialization) and is a 400, not a stack overflow.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * The offset of the first `[` or `{` nested deeper than `limit`, or -1. Brackets inside strings do not count;
 * the text need not be valid JSON (JSON.parse reports syntax afterwards).
 */
export function findTooDeep(text: string, limit: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth++;
      if (depth > limit) return i;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return -1;
}
