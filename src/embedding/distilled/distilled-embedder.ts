/**
 * @module The distilled offline embedder: USE-lite turned into a static token table (model2vec's recipe,
 * scripts/distill-use-lite.mjs), so a text's vector is the normalized sum of its tokens' rows. No worker,
 * no graph: microseconds per text on the calling thread, at some cost in recall (docs/recall.md).
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Embedder, EmbedOptions, InputWindow } from '../embedder.js';
import { normalizeL2 } from '../l2-normalize.js';
import { useLiteTokenizer } from '../offline/use-lite-token-counter.js';
import type { SentencePieceTokenizer } from './sentencepiece-tokenizer.js';
import { loadStaticTable, SHIPPED_TABLE, type StaticTable } from './static-table.js';

/** Its vectors are not USE-lite's (256-d, another space): a collection made by one refuses the other. */
const MODEL = 'distilled:use-lite-static-256-v1';
const DIMENSIONS = 256;
/** The id of an unknown character; an empty text gets its row, so every vector has unit length. */
const UNKNOWN_ID = 0;
/** Longest stretch of embedding before other work on the event loop gets a turn. */
const YIELD_AFTER_MS = 5;

interface LoadedModel {
  readonly tokenizer: SentencePieceTokenizer;
  readonly table: StaticTable;
}

/** Loaded once per process on first use (~20 ms: 2 MB read and hashed, 8,000 pieces into a trie). */
let shared: LoadedModel | undefined;
function loadShared(): LoadedModel {
  if (shared !== undefined) return shared;
  const table = loadStaticTable(SHIPPED_TABLE.url, SHIPPED_TABLE.sha256);
  // The table's rows were distilled from USE-lite's vocabulary: the offline embedder's own tokenizer.
  shared = { tokenizer: useLiteTokenizer(), table };
  return shared;
}

/** Embeds with the distilled table; reads any length of text (a sum has no window). */
export class DistilledEmbedder implements Embedder {
  readonly model = MODEL;
  readonly dimensions = DIMENSIONS;
  readonly inputWindow: InputWindow = {
    maxTokens: Number.POSITIVE_INFINITY,
    countTokens: (text) => loadShared().tokenizer.encode(text).length,
  };

  /**
   * Computes on the calling thread, so a long batch (an import's hundreds of chunks, ~0.2 ms each) hands the
   * event loop back every few milliseconds: /retrieve and /save keep answering meanwhile.
   */
  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    options.signal?.throwIfAborted();
    const vectors: Float32Array[] = [];
    let since = performance.now();
    for (const text of texts) {
      if (performance.now() - since > YIELD_AFTER_MS) {
        await yieldToEventLoop();
        options.signal?.throwIfAborted();
        since = performance.now();
      }
      vectors.push(this.embedOne(text));
    }
    return vectors;
  }

  /** Loads the table, so /ready fails (ProviderError) when the shipped file is missing or damaged. */
  async probe(): Promise<void> {
    loadShared();
  }

  /** Synchronous single-text form: the sum of the text's token rows (SIF-weighted already), unit length. */
  embedOne(text: string): Float32Array {
    const { tokenizer, table } = loadShared();
    const ids = tokenizer.encode(text);
    if (ids.length === 0) ids.push(UNKNOWN_ID);
    const { dims, scales, values } = table;
    const sum = new Float32Array(dims);
    for (const id of ids) {
      const scale = scales[id]!;
      const offset = id * dims;
      for (let j = 0; j < dims; j++) sum[j] = sum[j]! + values[offset + j]! * scale;
    }
    return normalizeL2(sum);
  }
}
