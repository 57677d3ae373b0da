/**
 * @module The chunk writer's pipeline within one pass: the next batch is claimed and embeds while the last one
 * is stored, so the model (or a remote endpoint's round trips) is kept busy instead of waiting for each batch's
 * store writes and journal commit.
 */
import type { BatchInFlight } from './batch-in-flight.js';

/** One unit of the writer's queue: a batch of deletes done, a batch claimed and embedding, or nothing due. */
export type WriteStep = 'deleted' | BatchInFlight | undefined;

/**
 * Runs steps from `next` until it has none: each batch is stored (let through its gate) once the batch after
 * it is claimed, so in the writer's FIFO queue that claim does not wait for the store writes. A batch past its
 * claim renewal limit (a hung embedder or store) ends the pass rather than retake the same chunks at once, so
 * another replica may. Whatever ends it, no batch is left behind: each is stored (unless aborted by a forget
 * or a stop) and has given its claims back when this resolves.
 */
export async function writeDueBatches(next: () => Promise<WriteStep>): Promise<void> {
  const started: BatchInFlight[] = [];
  const take = async (): Promise<WriteStep> => {
    const step = await next();
    if (step !== undefined && step !== 'deleted') started.push(step);
    return step;
  };
  try {
    let step = await take();
    while (step !== undefined) {
      if (step === 'deleted') {
        step = await take();
        continue;
      }
      const current = step;
      await current.embedded;
      step = await take();
      current.store();
      // An aborted batch gave way to a forget or a stop: its chunks are still due, and a later step takes them.
      if ((await current.ended) === 'renewal-limit') break;
    }
  } finally {
    for (const batch of started) batch.store();
    await Promise.allSettled(started.map((batch) => batch.ended));
  }
}
