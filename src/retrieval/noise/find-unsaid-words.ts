/**
 * @module The words of a recall query that no memory holds ("unsaid"): the lexical evidence the noise cut reads
 * (cut-noise.ts). A word the hits hold is held; the others are asked of the store, one term each.
 */
import { tokenizeText } from '../../parts/tokenize-text.js';

/** A query word, as written, with its terms (what the lexical index matches). */
interface QueryWord {
  readonly word: string;
  readonly terms: readonly string[];
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;
/** Numbers are left out: a memory writes "the 23rd" or "twenty" where a question says 23, so no number is unsaid. */
const NUMBER = /^\p{N}+$/u;
/**
 * Never unsaid, though the index keeps them: words of a question's grammar that the stop list (stopword's 108)
 * lacks (interrogatives, auxiliaries, indefinite pronouns), which chat seldom says back; and the names of months
 * and weekdays, which recall matches against the memories' dates (time in recall), not their words.
 */
const NEVER_UNSAID: ReadonlySet<string> = new Set(
  [
    'when why whose whom does doing may will shall must',
    'something anything nothing everything someone anyone everyone somebody anybody nobody',
    'january february march april may june july august september october november december',
    'monday tuesday wednesday thursday friday saturday sunday',
  ].flatMap((words) => words.split(' ')),
);

/** The query's words that have index terms, each once, in order. */
function readQueryWords(queryText: string): QueryWord[] {
  const seen = new Set<string>();
  const words: QueryWord[] = [];
  for (const [word] of queryText.matchAll(WORD)) {
    if (seen.has(word) || NUMBER.test(word) || NEVER_UNSAID.has(word.toLowerCase())) continue;
    seen.add(word);
    const terms = tokenizeText(word);
    if (terms.length > 0) words.push({ word, terms });
  }
  return words;
}

/**
 * The query's words whose every term is in none of the hits' texts and, asked of the store (`findHeldTerms`: which
 * of these terms any memory the recall may see holds), in no memory. Stop words, numbers, question grammar and
 * month and weekday names are never unsaid.
 */
export async function findUnsaidWords(
  queryText: string,
  hitTexts: readonly string[],
  findHeldTerms: (terms: readonly string[]) => Promise<ReadonlySet<string>>,
): Promise<string[]> {
  const words = readQueryWords(queryText);
  const inHits = new Set(hitTexts.flatMap((text) => tokenizeText(text)));
  const unknown = [...new Set(words.flatMap((w) => w.terms))].filter((term) => !inHits.has(term));
  if (unknown.length === 0) return [];
  const held = await findHeldTerms(unknown);
  const unsaid = (term: string) => !inHits.has(term) && !held.has(term);
  return words.filter((w) => w.terms.every(unsaid)).map((w) => w.word);
}

/** The query with these words taken out (whole words only), spaces collapsed. */
export function removeWords(queryText: string, words: readonly string[]): string {
  const gone = new Set(words);
  return queryText
    .replace(WORD, (word) => (gone.has(word) ? ' ' : word))
    .replace(/\s+/g, ' ')
    .trim();
}
