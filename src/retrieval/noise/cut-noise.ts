/**
 * @module "No noise when nothing fits" (issue 35): recall answers nothing when the question is about something no
 * memory mentions. The dense cosine alone cannot tell (a question naming a person scores 0.4-0.5 with every line
 * of theirs, docs/recall.md), so three signals must agree: words no memory holds carry a large share of the
 * question's meaning, no hit matches it closely, and the dense and word rankings do not agree on the best hit.
 */
import { computeCosine } from '../../runtime/cosine-similarity.js';
import type { RecallHit } from '../recall-hit.js';
import { findUnsaidWords, removeWords } from './find-unsaid-words.js';

/** The cut's settings: the bot's `retrieve.noiseCut` (or the request's `noise_cut`) and `retrieve.noiseCutScore`. */
export interface NoiseCutSettings {
  /** The share of the question's meaning in unsaid words from which it is cut; 0 turns the cut off. */
  readonly share: number;
  /** A best hit with at least this cosine is a real match: never cut. */
  readonly score: number;
}

export interface NoiseCutSources {
  /** The query as recall embeds and matches it (its time words taken out). */
  readonly queryText: string;
  /** Which of these terms any memory the recall may see holds (one lexical search each). */
  readonly findHeldTerms: (terms: readonly string[]) => Promise<ReadonlySet<string>>;
  /** The query vector of another text (the query without its unsaid words). */
  readonly embedQuery: (text: string) => Promise<Float32Array | readonly number[] | undefined>;
}

/** The cut's questions, asked while recall searches: the unsaid words, and the query's vector without them. */
export interface NoiseCutStart {
  readonly unsaidWords: Promise<readonly string[]>;
  /** Undefined when no word is unsaid; `everything` when every word is. */
  readonly rest: Promise<Float32Array | readonly number[] | 'everything' | undefined>;
}

/**
 * Starts the cut's questions as the recall starts, so the second embedding runs beside the first (on another
 * model worker) instead of after the searches: its cost is CPU, not the asker's wait. A failure (a collection
 * without a parts index) finds nothing unsaid: no cut.
 */
export function startNoiseCut(sources: NoiseCutSources): NoiseCutStart {
  const unsaidWords = findUnsaidWords(sources.queryText, [], sources.findHeldTerms).catch(() => []);
  const rest = unsaidWords
    .then(async (words) => {
      if (words.length === 0) return undefined;
      const text = removeWords(sources.queryText, words);
      return text === '' ? ('everything' as const) : await sources.embedQuery(text);
    })
    .catch(() => undefined);
  return { unsaidWords, rest };
}

/**
 * The best hit ranked within this many places by both the dense and the word search is evidence of a match: the
 * two signals agree. Rank, not the fused score, so the rule reads the same at every `limit`.
 */
export const AGREEING_RANK = 2;

/** What the cut found, for a reader who asks why recall answered nothing. */
export interface NoiseCutOutcome {
  readonly hits: readonly RecallHit[];
  /** Set when the hits were cut: the unsaid words and the share of the question's meaning they carry. */
  readonly cut?: { readonly unsaidWords: readonly string[]; readonly share: number };
}

/**
 * `hits` (best first), or none when the question is about something nothing recalled mentions. The cheap tests
 * come first: a close match or agreeing rankings answer without waiting for the started questions.
 */
export async function cutNoise(
  hits: readonly RecallHit[],
  settings: NoiseCutSettings,
  started: NoiseCutStart,
  vector: Float32Array | readonly number[],
): Promise<NoiseCutOutcome> {
  const best = hits[0];
  if (settings.share <= 0 || best === undefined) return { hits };
  if (Math.max(...hits.map((hit) => hit.score)) >= settings.score) return { hits };
  if (isAgreed(best)) return { hits };
  const unsaidWords = await started.unsaidWords;
  const rest = await started.rest;
  if (unsaidWords.length === 0 || rest === undefined) return { hits };
  const share = rest === 'everything' ? 1 : 1 - computeCosine(vector, rest);
  return share >= settings.share ? { hits: [], cut: { unsaidWords, share } } : { hits };
}

/** Whether the hit is near the top of both the dense and the word ranking (a whole chunk has no word rank). */
function isAgreed(hit: RecallHit): boolean {
  const signals = hit.explain?.signals;
  const dense = signals?.part_dense?.rank;
  const words = signals?.part_lexical?.rank;
  return dense !== undefined && words !== undefined && dense <= AGREEING_RANK && words <= AGREEING_RANK;
}
