/**
 * @module Ids and names must be well-formed text: a NUL (U+0000) or a lone UTF-16 surrogate cannot be stored
 * (Postgres refuses both in text), so the wire refuses them as a 400 naming the field instead of a 500.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The message for a field holding a NUL or a lone surrogate. */
export const NOT_CLEAN_TEXT =
  'must not contain U+0000 (a NUL character) or a lone UTF-16 surrogate (send well-formed UTF-8)';

/** Whether `value` holds no NUL and no lone surrogate. */
export function isCleanText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}
