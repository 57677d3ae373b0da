/**
 * @module Counts the texts a benchmark's process sends to model worker threads (the offline embedder's
 * `{ id, texts }` jobs, or `{ id, tokenIds }` once the texts are tokenized before they leave), and how long
 * each worker holds a job, from outside the code under test, so the same figures work for any tree it runs
 * (today's branch or main's copy, side by side) and nothing in src/ exists only for benchmarks.
 */
import { Worker } from 'node:worker_threads';

/** Jobs sent to one worker and not answered yet, and since when it has held one. */
interface Holding {
  inFlight: number;
  since: number;
}

let sent = 0;
let busyMs = 0;
const holding = new Map<Worker, Holding>();
const workers = new Set<Worker>();

const post = Worker.prototype.postMessage;
Worker.prototype.postMessage = function countTexts(this: Worker, message: unknown, transfer?: never) {
  const job = message as { id?: unknown; texts?: unknown; tokenIds?: unknown } | null;
  const inputs = Array.isArray(job?.texts)
    ? job.texts
    : Array.isArray(job?.tokenIds)
      ? job.tokenIds
      : undefined;
  if (inputs !== undefined) {
    sent += inputs.length;
    workers.add(this);
    const held = holding.get(this) ?? { inFlight: 0, since: 0 };
    if (held.inFlight === 0) held.since = performance.now();
    held.inFlight += 1;
    holding.set(this, held);
  }
  return post.call(this, message, transfer);
};

// A worker answers each job with one message carrying the job's id: the job left it then.
const emit = Worker.prototype.emit;
Worker.prototype.emit = function countAnswers(this: Worker, event: string | symbol, ...args: unknown[]) {
  const held = holding.get(this);
  if (event === 'message' && held !== undefined && held.inFlight > 0) {
    const answer = args[0] as { id?: unknown } | null;
    if (typeof answer?.id === 'number') {
      held.inFlight -= 1;
      if (held.inFlight === 0) busyMs += performance.now() - held.since;
    }
  }
  return emit.call(this, event, ...args);
} as typeof emit;

/** Texts sent to model workers since this module loaded. */
export function countModelTexts(): number {
  return sent;
}

/** A reading of the workers' time holding jobs, to compare with a later one (busyFractionSince). */
export interface BusyReading {
  readonly at: number;
  readonly busyMs: number;
}

/** Now, and the job-holding time of every model worker so far (jobs still held count up to now). */
export function readWorkersBusy(): BusyReading {
  const at = performance.now();
  let total = busyMs;
  for (const held of holding.values()) if (held.inFlight > 0) total += at - held.since;
  return { at, busyMs: total };
}

/**
 * The share of `workerCount` workers' time spent holding a job between `start` and now: 1 means every
 * worker always had a job (computing, or its answer on the way back).
 */
export function busyFractionSince(start: BusyReading, workerCount: number): number {
  const end = readWorkersBusy();
  return (end.busyMs - start.busyMs) / Math.max(1, workerCount) / Math.max(1e-9, end.at - start.at);
}

/** How many model workers this process started and sent jobs to. */
export function countModelWorkers(): number {
  return workers.size;
}
