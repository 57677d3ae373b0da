/**
 * @module Cuts a text longer than an embedder's input window into consecutive windows that each fit, at line
 * (message) boundaries where possible, else at sentence ends, then spaces, and only as a last resort inside
 * a word. Every character outside the separators at window edges lands in exactly one window.
 */
import type { InputWindow } from './embedder.js';

/** A span of the text [start, end) with its token count. */
interface Piece {
  readonly start: number;
  readonly end: number;
  readonly tokens: number;
}

/** Separators tried in order: lines (one message each in a chunk), sentence ends, then any whitespace. */
const SEPARATORS = [/\n+/g, /(?<=[.!?…])\s+/g, /\s+/g] as const;
/**
 * A line break usually costs a token or two of its own in the joined text (the newline, and a word that
 * loses its leading-space marker), so packing assumes that much; each window is then counted exactly.
 */
const LINE_BREAK_TOKENS = 2;
/**
 * Spans longer than this many characters per token of the window are split before they are counted:
 * a tokenizer may be slow on long input (USE-lite's takes ~quadratic time), and no real text packs more
 * than a few characters into a token on average.
 */
export const MAX_CHARS_PER_TOKEN = 6;

/** Returns `[text]` when it fits the window, else windows in text order, each within `window.maxTokens`. */
export function splitIntoWindows(text: string, window: InputWindow): string[] {
  if (window.maxTokens === Number.POSITIVE_INFINITY) return [text];
  const maxChars = Math.max(64, window.maxTokens * MAX_CHARS_PER_TOKEN);
  const pieces = fitPieces(text, 0, text.length, 0, window, maxChars);
  // One piece is the whole text less its surrounding blanks, which need not fit: send the piece.
  if (pieces.length === 0) return [text];
  if (pieces.length === 1) return [text.slice(pieces[0]!.start, pieces[0]!.end)];
  return packPieces(text, pieces, window, maxChars);
}

/** Splits [start, end) into pieces that each fit alone, trying coarser separators first. */
function fitPieces(
  text: string,
  start: number,
  end: number,
  level: number,
  window: InputWindow,
  maxChars: number,
): Piece[] {
  const span = text.slice(start, end);
  if (span.trim() === '') return [];
  if (span.length <= maxChars) {
    const tokens = window.countTokens(span);
    if (tokens <= window.maxTokens) return [{ start, end, tokens }];
  }
  const separator = SEPARATORS[level];
  if (separator === undefined) return cutInsideWord(text, start, end, window, maxChars);
  const parts = splitAt(span, separator).map(([from, to]) => [start + from, start + to] as const);
  // No such separator here: the same span, one level finer.
  if (parts.length <= 1) return fitPieces(text, start, end, level + 1, window, maxChars);
  return parts.flatMap(([from, to]) => fitPieces(text, from, to, level + 1, window, maxChars));
}

/** The spans of `span` between matches of `separator`. */
function splitAt(span: string, separator: RegExp): [number, number][] {
  const parts: [number, number][] = [];
  let from = 0;
  for (const match of span.matchAll(separator)) {
    if (match.index > from) parts.push([from, match.index]);
    from = match.index + match[0].length;
  }
  if (from < span.length) parts.push([from, span.length]);
  return parts;
}

/** A span with no separator left (a huge "word"): cut into halves until each half fits. */
function cutInsideWord(
  text: string,
  start: number,
  end: number,
  window: InputWindow,
  maxChars: number,
): Piece[] {
  const points = Array.from(text.slice(start, end));
  if (points.length <= 1) return [{ start, end, tokens: window.countTokens(text.slice(start, end)) }];
  // Cut between code points, never inside a surrogate pair.
  const middle = start + points.slice(0, Math.floor(points.length / 2)).join('').length;
  return [middle, end].flatMap((to, i) => {
    const from = i === 0 ? start : middle;
    const span = text.slice(from, to);
    if (span.length <= maxChars) {
      const tokens = window.countTokens(span);
      if (tokens <= window.maxTokens) return [{ start: from, end: to, tokens }];
    }
    return cutInsideWord(text, from, to, window, maxChars);
  });
}

/**
 * Packs consecutive pieces into windows of about equal size (so no window is a stray tail that weighs as
 * much as the others in the mean), each checked with an exact count before it grows past the window.
 */
function packPieces(text: string, pieces: readonly Piece[], window: InputWindow, maxChars: number): string[] {
  const { maxTokens } = window;
  const joinCost = (j: number) =>
    text.slice(pieces[j - 1]!.end, pieces[j]!.start).includes('\n') ? LINE_BREAK_TOKENS : 0;
  const sum = pieces.reduce((total, piece) => total + piece.tokens, 0);
  const estimated = pieces.reduce((total, piece, j) => total + piece.tokens + (j > 0 ? joinCost(j) : 0), 0);
  const target = Math.ceil(sum / Math.max(1, Math.ceil(estimated / maxTokens)));
  const count = (from: number, to: number) =>
    window.countTokens(text.slice(pieces[from]!.start, pieces[to - 1]!.end));
  const windows: string[] = [];
  for (let i = 0; i < pieces.length; ) {
    let j = i + 1;
    let estimate = pieces[i]!.tokens;
    let held = pieces[i]!.tokens;
    while (j < pieces.length && held < target) {
      const piece = pieces[j]!;
      if (piece.end - pieces[i]!.start > maxChars) break;
      let next = estimate + joinCost(j) + piece.tokens;
      // The estimate says it would not fit: ask the tokenizer before giving up on the piece.
      if (next > maxTokens) next = count(i, j + 1);
      if (next > maxTokens) break;
      estimate = next;
      held += piece.tokens;
      j += 1;
    }
    // The estimate can be low (a boundary costing more than assumed): shrink until the exact count fits.
    while (j - i > 1 && count(i, j) > maxTokens) j -= 1;
    windows.push(text.slice(pieces[i]!.start, pieces[j - 1]!.end));
    i = j;
  }
  return windows;
}
