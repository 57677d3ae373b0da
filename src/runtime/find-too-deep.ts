/**
 * @module Finds JSON nested deeper than a bound by scanning the raw text, iteratively: checked before parsing,
 * a deep body can reach no recursive code (validation, filters, serialization) and is a 400, not a stack overflow.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;

/**
 * The offset of the first `[` or `{` nested deeper than `limit`, or -1. Brackets inside strings do not count;
 * the text need not be valid JSON (JSON.parse reports syntax afterwards). The scan jumps from one bracket or
 * quote to the next with a regular expression and over a string's content with indexOf, rather than looking
 * at every character in JavaScript: a 3072-d vector is ~64 kB of digits between two brackets, and a store
 * upsert's body of a few MB took ~10 ms a megabyte character by character on a busy core.
 */
export function findTooDeep(text: string, limit: number): number {
  const structural = /["[\]{}]/g;
  let depth = 0;
  for (let match = structural.exec(text); match !== null; match = structural.exec(text)) {
    const at = match.index;
    const c = text.charCodeAt(at);
    if (c === QUOTE) {
      const end = findClosingQuote(text, at + 1);
      if (end < 0) return -1; // unterminated: nothing after it is structure
      structural.lastIndex = end + 1;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth++;
      if (depth > limit) return at;
    } else {
      depth--;
    }
  }
  return -1;
}

/** The offset of the quote closing a string whose content starts at `from`, or -1: one after an even run of backslashes. */
function findClosingQuote(text: string, from: number): number {
  for (let at = text.indexOf('"', from); at >= 0; at = text.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (at - backslashes - 1 >= from && text.charCodeAt(at - backslashes - 1) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return -1;
}
