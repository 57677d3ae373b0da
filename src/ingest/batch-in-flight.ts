/**
 * @module One background write batch of the chunk writer in flight: its chunks are embedded at once, and
 * stored, as a unit of the writer's queue, only once the writer lets it (after claiming the next batch, so the
 * model embeds that one meanwhile) and only if no forget or stop aborted it first.
 */
import type { PlannedChunk } from '../journal/chunk-queue.js';
import type { ChunkBatchDeps } from './chunk-batch-deps.js';
import type { HeldClaims } from './held-claims.js';
import { storeChunkBatch } from './store-chunk-batch.js';
import { embedChunkBatch } from './write-chunk-batch.js';

/** How a batch ended: written (or failed, or aborted by a forget or a stop), or past its renewal limit. */
export type BatchEnd = 'done' | 'renewal-limit';

/** A batch claimed and embedding. */
export interface BatchInFlight {
  /** Resolves once its vectors are ready (or it failed or was aborted). */
  readonly embedded: Promise<void>;
  /** Lets it be stored once embedded. */
  store(): void;
  /** Gives way: no store write starts after this, and its claims are given back. */
  abort(): void;
  /** Resolves once its claims are given back; never rejects unhandled (the writer awaits it). */
  readonly ended: Promise<BatchEnd>;
}

/** What a batch needs of its writer. */
export interface BatchWriter {
  readonly deps: ChunkBatchDeps;
  readonly claims: HeldClaims;
  /** Runs `work` as a unit of the writer's queue. */
  enqueue(work: () => Promise<void>): Promise<void>;
}

/** Starts embedding `due` (claimed by `writer`); see BatchInFlight. */
export function startBatchInFlight(writer: BatchWriter, due: readonly PlannedChunk[]): BatchInFlight {
  const controller = new AbortController();
  let embeddedDone!: () => void;
  const embedded = new Promise<void>((resolve) => {
    embeddedDone = resolve;
  });
  let openGate!: () => void;
  const gate = new Promise<void>((resolve) => {
    openGate = resolve;
  });
  // Given back at once, written or not: a failed chunk waits for its retry time, not for the claim.
  // Aborted as well when the batch outlives its claim renewal limit (held-claims.ts).
  const ended = writer.claims
    .whileHeld(
      due,
      async (signal) => {
        const groups = await embedChunkBatch(writer.deps, due, signal).finally(embeddedDone);
        if (!signal.aborted) await Promise.race([gate, whenAborted(signal)]);
        // Checked and queued in one step: a forget queued after this finds the store unit ahead of its task.
        if (signal.aborted) return;
        await writer.enqueue(() => storeChunkBatch(writer.deps, groups, signal));
      },
      controller.signal,
    )
    .finally(embeddedDone);
  // Awaited by the pass (and a forget); a failure is the pass's to report, never an unhandled rejection.
  ended.catch(() => undefined);
  return { embedded, store: openGate, abort: () => controller.abort(), ended };
}

/** Resolves when `signal` aborts (it has not yet). */
function whenAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
