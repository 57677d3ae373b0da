/**
 * @module The lexical view of a text for the parts index: lowercase words with English stop words removed
 * and stemmed, so "adopting" in a question meets "adoption" in what was said.
 */
import { stemmer } from 'stemmer';
import stopword from 'stopword';

/**
 * stopword's English list (108 words). Only the commonest function words: Qdrant's idf modifier already
 * discounts frequent words, so the list just keeps them out of the index.
 */
const STOP_WORDS: ReadonlySet<string> = new Set(stopword.eng);
/** Letters and digits of any script; everything else separates words. */
const WORD = /[\p{L}\p{N}]+/gu;
/** English possessives and contractions ("Anna's", "don't") would otherwise leave a stray "s" or "don". */
const APOSTROPHE_SUFFIX = /n['’]t\b|['’](s|re|ve|ll|d|m)\b/gu;
/** Longer runs are ids, hashes or base64, never what a question shares with an answer. */
const MAX_WORD_LENGTH = 40;

/**
 * Each word's stem, as the Porter stemmer gave it: a text repeats its words (a 20 kB query its few hundred
 * words thousands of times), and stemming was most of tokenizing. Emptied when full, so it stays bounded.
 */
const STEMS = new Map<string, string>();
const MAX_STEMS = 50_000;

function stemWord(word: string): string {
  let stem = STEMS.get(word);
  if (stem === undefined) {
    if (STEMS.size >= MAX_STEMS) STEMS.clear();
    stem = stemmer(word);
    STEMS.set(word, stem);
  }
  return stem;
}

/**
 * The terms of `text` in order, repeats kept (term frequency counts them): NFKC-normalized, lowercased,
 * split into letter/digit runs, stop words and one-letter words dropped (single digits kept), then
 * stemmed with the Porter stemmer (`stemmer`; words outside a-z pass through unchanged).
 */
export function tokenizeText(text: string): string[] {
  const normalized = text.normalize('NFKC').toLowerCase().replace(APOSTROPHE_SUFFIX, '');
  const terms: string[] = [];
  for (const [word] of normalized.matchAll(WORD)) {
    if (word.length > MAX_WORD_LENGTH || STOP_WORDS.has(word)) continue;
    if (word.length === 1 && !/\p{N}/u.test(word)) continue;
    terms.push(stemWord(word));
  }
  return terms;
}
