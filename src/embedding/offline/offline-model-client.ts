/**
 * @module The offline model in a small pool of worker threads: TensorFlow.js computes on the thread that
 * calls it, so the model lives there (model-worker) and the service's event loop stays free for /save and
 * /retrieve while chunks embed. Bulk work keeps every worker fed: each holds the job it computes and the next
 * one, so it never idles while the main thread answers. Urgent calls (recall queries) go ahead of bulk jobs,
 * on the main thread and in the worker, so a query waits for at most one job in progress, never a backlog.
 * Urgent calls take turns, one job each, short queries (one job) first, and one call never runs on two
 * workers at once. Long queries' windows (a 20 kB query has 4) never hold every worker: with two or more,
 * one stays free of them, so a short query starts at once instead of waiting for a window to end (issue 37:
 * short queries beside three clients of 20 kB queries, p50 230 → 45 ms; the 20 kB ones pay for it).
 * Past 300 lines because scheduling, a worker's crash and the pool's close all change the same private
 * queues and slots; the job and slot shapes and their pure helpers already live in model-job.
 */
import type { Worker } from 'node:worker_threads';
import { ProviderError } from '../../errors/memory-pool-error.js';
import type {
  CloseMessage,
  ModelAnswerMessage,
  ModelJobMessage,
  OfflineRuntime,
  RuntimeMessage,
} from './model-worker.js';
import { startModelWorker } from './model-worker.js';
import {
  holds,
  holdsLongWindow,
  type Job,
  lengthOf,
  nextUrgentCall,
  type Slot,
  type UrgentCall,
  urgentJobsOf,
} from './model-job.js';
import { encodeUseLite } from './use-lite-token-counter.js';

/**
 * Bulk jobs one worker holds at most: the one it computes and the next. The next job is already in the
 * worker when the first ends, so the worker does not wait for the main thread to see the answer and send
 * more (busy with store writes or planning, it can take milliseconds); an urgent job sent later still goes
 * ahead of it. More would only lengthen what a worker crash fails.
 */
const BULK_JOBS_PER_WORKER = 2;

export interface OfflineModelClientOptions {
  /** Most worker threads to run (default 1); they start only when jobs wait and every worker is busy. */
  readonly workers?: number;
  /** Which runtime the workers compute with (default `auto`: ONNX Runtime, else TensorFlow.js). */
  readonly runtime?: OfflineRuntime;
  /** Starts a worker thread (default: startModelWorker with `runtime`); tests pass one that crashes. */
  readonly startWorker?: () => Worker;
  /** A text's model ids (default: USE-lite's tokenizer, encodeUseLite); the worker receives ids, not text. */
  readonly encode?: (text: string) => readonly number[];
  /** How long close() lets a worker end the job it computes before terminating it (default 5 s). */
  readonly closeTimeoutMs?: number;
}

/**
 * A single text's job takes ~22 ms on ONNX Runtime and ~0.13 s on TensorFlow.js, so 5 s is ample for the
 * one job a worker computes, and ends well within a supervisor's stop timeout (Docker's is 10 s).
 */
const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;

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
  #nextSlotNumber = 1;
  /** Urgent calls with jobs waiting, in turn order: the one served last goes to the back. */
  readonly #urgent: UrgentCall[] = [];
  readonly #queued: Job[] = [];
  #runtime: RuntimeMessage | undefined;
  readonly #closeTimeoutMs: number;
  /** Set by close(): no job is sent and no worker started from then on. */
  #closed: Promise<void> | undefined;

  constructor(options: OfflineModelClientOptions = {}) {
    this.#maxWorkers = Math.max(1, options.workers ?? 1);
    this.#closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
    this.#startWorker = options.startWorker ?? (() => startModelWorker(options.runtime));
    this.#encode = options.encode ?? encodeUseLite;
  }

  /** How many worker threads may run. */
  get maxWorkers(): number {
    return this.#maxWorkers;
  }

  /**
   * What the workers compute with (and why not ONNX Runtime): TensorFlow.js if any running worker does, the
   * slow case worth knowing of among mixed workers; else the last word of a worker; undefined before one loads.
   */
  get runtime(): RuntimeMessage | undefined {
    return this.#slots.find((slot) => slot.runtime?.runtime === 'tfjs')?.runtime ?? this.#runtime;
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
    if (this.#closed !== undefined) return batches.map(() => Promise.reject(stoppingError()));
    const call: UrgentCall | undefined = urgent
      ? { waiting: [], running: false, short: batches.length === 1 }
      : undefined;
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
    if (call !== undefined) {
      queue.push(...jobs);
      if (jobs.length > 0) this.#urgent.push(call);
    } else {
      // Longest first: the call ends when its last job does, and a short last job leaves the other workers
      // idle for less time than a long one would (each promise still gets its own batch's vectors).
      queue.push(...[...jobs].sort((a, b) => lengthOf(b) - lengthOf(a)));
    }
    this.#pump();
    return promises;
  }

  /**
   * Hands waiting jobs to workers: bulk jobs to workers holding fewer than BULK_JOBS_PER_WORKER, idle ones
   * first, then new ones up to the limit, then the least loaded. An urgent call's next job goes to an idle
   * worker if there is one, else to every worker holding no urgent job: each runs it next, ahead of the
   * bulk job it holds, and the first to get to it claims it (the others skip it), so a query waits for the
   * first worker to end its current job, whichever that is.
   */
  #pump(): void {
    if (this.#closed !== undefined) return;
    for (;;) {
      const call = nextUrgentCall(this.#urgent);
      const targets = call === undefined ? [] : this.#urgentTargets(call);
      if (call !== undefined && targets.length > 0) {
        this.#sendToAll(targets, this.#takeUrgentJob(call));
        continue;
      }
      if (this.#queued.length === 0) return;
      const slot = this.#idleOrNewSlot() ?? this.#leastLoaded((s) => s.jobs.size < BULK_JOBS_PER_WORKER);
      if (slot === undefined) return; // every worker is full: the next answer pumps again
      this.#sendToAll([slot], this.#queued.shift()!);
    }
  }

  /**
   * Where an urgent call's next job goes: an idle (or new) worker, else every worker holding no urgent job;
   * none for a long query's window when every other worker already computes one. A short query also goes to
   * workers computing one other job's window, where it runs next: the first worker to end its window starts
   * it, without waiting for this thread (busy parsing a long query, say) to see the answer.
   */
  #urgentTargets(call: UrgentCall): Slot[] {
    if (!call.short && this.#maxWorkers > 1) {
      const busyWithLong = this.#slots.filter((s) => holdsLongWindow(s)).length;
      if (busyWithLong >= this.#maxWorkers - 1) return [];
    }
    const free = this.#idleOrNewSlot();
    if (free !== undefined) return [free];
    const most = call.short ? 1 : 0;
    return this.#slots.filter((s) => urgentJobsOf(s) <= most);
  }

  #idleOrNewSlot(): Slot | undefined {
    return this.#slots.find((s) => s.jobs.size === 0) ?? this.#startSlot();
  }

  #leastLoaded(accepts: (slot: Slot) => boolean): Slot | undefined {
    let best: Slot | undefined;
    for (const slot of this.#slots) {
      if (accepts(slot) && (best === undefined || slot.jobs.size < best.jobs.size)) best = slot;
    }
    return best;
  }

  /** Sends `job` to each of `slots` (more than one only for an urgent job, which one of them claims). */
  #sendToAll(slots: readonly Slot[], job: Job): void {
    const tokenIds = this.#tokenize(job);
    if (tokenIds === undefined) return;
    if (slots.length > 1) job.claim = new Int32Array(new SharedArrayBuffer(4));
    for (const slot of slots) {
      const id = this.#nextId++;
      slot.jobs.set(id, job);
      slot.worker.ref(); // keep the process up while a job is in flight
      const message: ModelJobMessage = {
        id,
        tokenIds,
        urgent: job.call !== undefined,
        ...(job.call?.short === true ? { short: true } : {}),
        ...(job.claim === undefined ? {} : { claim: job.claim, claimer: slot.number }),
      };
      // One worker gets the ids' buffers; several get copies.
      slot.worker.postMessage(
        message,
        slots.length > 1 ? [] : tokenIds.map((ids) => ids.buffer as ArrayBuffer),
      );
    }
  }

  /** Settles `job` once (its other copies, if any, are skipped or ignored) and lets its call go on. */
  #finish(job: Job, vectors: Float32Array[] | undefined, error?: Error): void {
    if (job.done === true) return;
    job.done = true;
    this.#release(job);
    if (vectors !== undefined) job.resolve(vectors);
    else job.reject(error!);
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
      this.#finish(
        job,
        undefined,
        new ProviderError(
          'embedding_failed',
          `could not tokenize ${job.texts.length} texts for the offline model: ${(error as Error).message}`,
          { retryable: false, cause: error },
        ),
      );
      return undefined;
    }
  }

  /** The next job of `call`, the first urgent call in turn with none running; the call goes to the back. */
  #takeUrgentJob(call: UrgentCall): Job {
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

  /**
   * Stops the pool without killing a worker mid-job: ONNX Runtime's `session.run` is synchronous native code,
   * and a worker terminated while it runs (by terminate() or process.exit()) aborts the whole process
   * (SIGABRT). Jobs not yet computing fail retryably; each worker ends the job it computes, releases its
   * session and exits by itself. One still busy after `closeTimeoutMs` is terminated (a hung native call
   * must not block a stop forever). Call it before process.exit(); later calls return the same promise.
   */
  close(): Promise<void> {
    if (this.#closed !== undefined) return this.#closed;
    const waiting = [...this.#queued, ...this.#urgent.flatMap((call) => call.waiting.splice(0))];
    this.#queued.length = 0;
    this.#urgent.length = 0;
    for (const job of waiting) this.#finish(job, undefined, stoppingError());
    this.#closed = Promise.all(this.#slots.map((slot) => this.#stopWorker(slot.worker))).then(() => {});
    return this.#closed;
  }

  #stopWorker(worker: Worker): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => void worker.terminate(), this.#closeTimeoutMs);
      worker.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      worker.ref(); // the process waits for the worker to finish its job
      worker.postMessage({ close: true } satisfies CloseMessage);
    });
  }

  #startSlot(): Slot | undefined {
    if (this.#slots.length >= this.#maxWorkers || this.#closed !== undefined) return undefined;
    const slot: Slot = { worker: this.#startWorker(), jobs: new Map(), number: this.#nextSlotNumber++ };
    const { worker } = slot;
    worker.on('message', (message: ModelAnswerMessage | RuntimeMessage) => {
      if ('runtime' in message) {
        slot.runtime = message;
        this.#runtime = message;
        return;
      }
      const job = slot.jobs.get(message.id);
      if (job === undefined) return;
      slot.jobs.delete(message.id);
      if (slot.jobs.size === 0 && this.#closed === undefined) worker.unref(); // closing: wait for its exit
      if (message.skipped === true) {
        // Another worker claimed this urgent job first; this one goes on to its next.
      } else if (message.vectors) this.#finish(job, message.vectors);
      else {
        // The model itself refused these texts: sending them again gives the same answer.
        const reason = `${job.texts.length} texts (${message.error ?? 'no reason given'})`;
        this.#finish(
          job,
          undefined,
          new ProviderError('embedding_failed', `offline embedder failed on ${reason}`, { retryable: false }),
        );
      }
      this.#pump();
    });
    const crash = (reason: string, cause?: unknown) => {
      const index = this.#slots.indexOf(slot);
      if (index < 0) return; // already failed (an 'error' is followed by an 'exit')
      this.#slots.splice(index, 1);
      const lost = [...slot.jobs.values()];
      slot.jobs.clear();
      for (const job of lost) {
        // An urgent copy another worker took, or still can take, is not lost.
        const claimedBy = job.claim === undefined ? slot.number : Atomics.load(job.claim, 0);
        if (claimedBy !== slot.number && (claimedBy !== 0 || this.#slots.some((s) => holds(s, job))))
          continue;
        this.#finish(
          job,
          undefined,
          this.#closed !== undefined
            ? stoppingError()
            : new ProviderError(
                'embedding_failed',
                `the offline model's worker ${reason} while embedding; a new worker is started and the texts can be sent again`,
                { retryable: true, cause },
              ),
        );
      }
      this.#pump(); // starts the replacement when jobs wait
    };
    worker.on('error', (error) => crash(`crashed (${error.message})`, error));
    worker.on('exit', (code) => crash(`exited (code ${code})`));
    this.#slots.push(slot);
    return slot;
  }
}

/** Why a job was not computed: the pool is stopping (the process is exiting); another process can embed it. */
function stoppingError(): ProviderError {
  return new ProviderError(
    'embedding_failed',
    'the offline model is stopping (the process is shutting down); send the texts again once it runs',
    { retryable: true },
  );
}
