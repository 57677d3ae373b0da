/**
 * @module The sparse vector starrysky180111's st-qdrant-memory fork (v3.3, "BM25 hybrid") puts on every point
 * and query, rebuilt here so its hybrid search ranks memory-pool's memories exactly as its own.
 *
 * Not the parts index's encoding (src/parts): that one stems, drops stop words, normalizes length and hashes
 * UTF-8 bytes, so the two disagree on any non-ASCII term. The fork's rule, from its source:
 * - lowercase the text; tokens are the ASCII runs `[a-z0-9_]{2,}`, then, for each run of CJK characters
 *   (ideographs incl. Extension A and compatibility ideographs, hiragana, katakana, hangul syllables), every
 *   single character and (`cjkBigram`, on by default) every adjacent pair, all over UTF-16 code units;
 * - a token's index is FNV-1a 32-bit over its UTF-16 code units, unsigned; equal indices add up;
 * - its value is `tf * (k1 + 1) / (tf + k1)` (BM25's saturation, no length normalization), k1 = 1.2;
 *   queries are encoded the same way, and the store multiplies in the idf (`modifier: "idf"`).
 */
import type { SparseVector } from '../hybrid-point-store.js';

/** The fork's default BM25 saturation (`bm25K1`). */
export const ST_BM25_K1 = 1.2;

export interface StBm25Options {
  /** Default 1.2 (the fork's `bm25K1` setting). */
  readonly k1?: number;
  /** Default true (the fork's `bm25CjkBigram` setting): adjacent CJK pairs are tokens too. */
  readonly cjkBigram?: boolean;
}

function isCjkCodeUnit(code: number): boolean {
  return (
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0x3040 && code <= 0x309f) ||
    (code >= 0x30a0 && code <= 0x30ff) ||
    (code >= 0xac00 && code <= 0xd7af)
  );
}

/** The fork's tokens of `text`, in its order: ASCII words first, then each CJK run's characters and pairs. */
export function tokenizeStBm25(text: string, cjkBigram = true): string[] {
  const lower = text.toLowerCase();
  const tokens: string[] = [...(lower.match(/[a-z0-9_]{2,}/g) ?? [])];
  let run = '';
  const flush = () => {
    for (let i = 0; i < run.length; i++) {
      tokens.push(run[i]!);
      if (cjkBigram && i + 1 < run.length) tokens.push(run.slice(i, i + 2));
    }
    run = '';
  };
  for (let i = 0; i < lower.length; i++) {
    if (isCjkCodeUnit(lower.charCodeAt(i))) run += lower[i];
    else flush();
  }
  flush();
  return tokens;
}

/** FNV-1a 32-bit over UTF-16 code units (offset 0x811c9dc5, prime 0x01000193), unsigned. */
export function hashStToken(token: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) {
    hash ^= token.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The fork's sparse vector of a text (a stored chunk or a query); empty when it has no token. */
export function encodeStBm25(text: string, options: StBm25Options = {}): SparseVector {
  const k1 = options.k1 ?? ST_BM25_K1;
  const counts = new Map<number, number>();
  for (const token of tokenizeStBm25(text, options.cjkBigram ?? true)) {
    const index = hashStToken(token);
    counts.set(index, (counts.get(index) ?? 0) + 1);
  }
  // First-seen order, as the fork sends it (Qdrant sorts indices itself).
  const indices = [...counts.keys()];
  return {
    indices,
    values: indices.map((index) => (counts.get(index)! * (k1 + 1)) / (counts.get(index)! + k1)),
  };
}
