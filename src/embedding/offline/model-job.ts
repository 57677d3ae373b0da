/** @module A job of the offline model pool (offline-model-client) and the worker slots that hold jobs. */
import type { Worker } from 'node:worker_threads';
import type { RuntimeMessage } from './model-worker.js';

/** One batch of texts on its way through the pool, and how to answer its caller. */
export interface Job {
  readonly texts: string[];
  readonly resolve: (vectors: Float32Array[]) => void;
  readonly reject: (error: Error) => void;
  /** The urgent call this job belongs to; undefined for bulk work. */
  readonly call?: UrgentCall;
  /** Set once the job is answered (an urgent job sent to several workers is answered by one). */
  done?: boolean;
  /** For an urgent job sent to several workers: 0, then the number of the slot whose worker took it. */
  claim?: Int32Array;
}

/** The jobs of one urgent call still waiting, and whether one of its jobs is on a worker now. */
export interface UrgentCall {
  readonly waiting: Job[];
  running: boolean;
  /** A call of one job (a short query, one window): it goes ahead of the windows of longer ones. */
  readonly short: boolean;
}

/**
 * The urgent call whose job goes next: of those with no job on a worker, the one with the fewest jobs left
 * (shortest first: a short query waits for no long query's windows), the earliest in turn among equals.
 */
export function nextUrgentCall(calls: readonly UrgentCall[]): UrgentCall | undefined {
  let best: UrgentCall | undefined;
  for (const call of calls) {
    if (call.running) continue;
    if (best === undefined || rankOf(call) < rankOf(best)) best = call;
  }
  return best;
}

/** One worker thread and the jobs sent to it and not answered yet, by id. */
export interface Slot {
  readonly worker: Worker;
  readonly jobs: Map<number, Job>;
  /** Names the slot in an urgent job's claim (from 1; 0 means unclaimed). */
  readonly number: number;
  /** What its worker computes with, once loaded (it may move to TensorFlow.js later). */
  runtime?: RuntimeMessage;
}

/** A job's size in characters, which the model's time grows with. */
export function lengthOf(job: Job): number {
  let length = 0;
  for (const text of job.texts) length += text.length;
  return length;
}

/**
 * How many recall queries' jobs `slot` holds that it will compute (not answered, not claimed by another
 * worker): a new one would wait behind them.
 */
export function urgentJobsOf(slot: Slot): number {
  let count = 0;
  for (const job of slot.jobs.values()) {
    if (job.call === undefined || job.done === true) continue;
    const claimedBy = job.claim === undefined ? 0 : Atomics.load(job.claim, 0);
    if (claimedBy === 0 || claimedBy === slot.number) count += 1;
  }
  return count;
}

/** Short calls first, then by jobs left. */
function rankOf(call: UrgentCall): number {
  return call.short ? 0 : call.waiting.length;
}

/** Whether `slot` holds a window of a long query (an urgent call of several jobs) not yet answered. */
export function holdsLongWindow(slot: Slot): boolean {
  for (const job of slot.jobs.values()) if (job.call?.short === false && job.done !== true) return true;
  return false;
}

/** Whether `slot` holds `job` (an urgent job may be held by several). */
export function holds(slot: Slot, job: Job): boolean {
  for (const held of slot.jobs.values()) if (held === job) return true;
  return false;
}
