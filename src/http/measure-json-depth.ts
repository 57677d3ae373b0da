/**
 * @module How deeply a JSON text nests, measured by scanning it once without recursion, so a body can be
 * refused before parsing and before any recursive code (validation, logging, filters) walks it. Self-contained
 * (no service imports) so other parsers, such as the embedded store's, can reuse it.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * The deepest nesting of arrays and objects in `text` (`1` → 0, `[]` → 1, `{"a":[1]}` → 2). Brackets inside
 * strings do not count. Stops early once `limit` is passed, returning a value above it. It does not validate:
 * malformed text gets some number, and JSON.parse reports the syntax error afterwards.
 */
export function measureJsonDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
    }
  }
  return deepest;
}
