/**
 * @module The nesting bound of request JSON. Qdrant parses bodies with serde_json, whose Deserializer starts with
 * `remaining_depth: 128` and refuses the container that brings it to 0 (serde_json src/de.rs, `check_recursion!`):
 * 127 nested arrays/objects parse, the 128th is `recursion limit exceeded`. The store checks the same bound on
 * the raw text before parsing, iteratively, so a deep body can reach no recursive code (filters, payload edits,
 * serialisation) and answers 400 instead of overflowing the stack.
 */

/** Containers a body may nest: serde_json's 128 minus the one whose entry fails. */
export const MAX_JSON_DEPTH = 127;

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
export function findTooDeep(text: string, limit: number = MAX_JSON_DEPTH): number {
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
