/**
 * @module Counts the texts a benchmark's process sends to model worker threads (the offline embedder's
 * `{ id, texts }` jobs), from outside the code under test, so the same count works for any tree it runs
 * (today's branch or main's copy, side by side) and nothing in src/ exists only for benchmarks.
 */
import { Worker } from 'node:worker_threads';

let sent = 0;
const post = Worker.prototype.postMessage;
Worker.prototype.postMessage = function countTexts(this: Worker, message: unknown, transfer?: never) {
  const texts = (message as { texts?: unknown } | null)?.texts;
  if (Array.isArray(texts)) sent += texts.length;
  return post.call(this, message, transfer);
};

/** Texts sent to model workers since this module loaded. */
export function countModelTexts(): number {
  return sent;
}
