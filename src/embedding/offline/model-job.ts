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
 * Whether `slot` holds a recall query's job it will compute (not answered, not claimed by another worker):
 * a second would wait behind it.
 */
export function hasUrgentJob(slot: Slot): boolean {
  for (const job of slot.jobs.values()) {
    if (job.call === undefined || job.done === true) continue;
    const claimedBy = job.claim === undefined ? 0 : Atomics.load(job.claim, 0);
    if (claimedBy === 0 || claimedBy === slot.number) return true;
  }
  return false;
}

/** Whether `slot` holds `job` (an urgent job may be held by several). */
export function holds(slot: Slot, job: Job): boolean {
  for (const held of slot.jobs.values()) if (held === job) return true;
  return false;
}
