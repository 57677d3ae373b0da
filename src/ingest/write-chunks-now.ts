/**
 * @module A forget's rewrite of the chunks it changed: written at once (not left to the background passes),
 * claimed as a background batch is, within a deadline.
 */
import type { ChunkBatchDeps } from './chunk-batch-deps.js';
import type { HeldClaims } from './held-claims.js';
import { writeChunkBatch } from './write-chunk-batch.js';

/** How long a forget waits for the rewrite of what its chunks keep; past it, the background writer finishes. */
const EXCLUSIVE_WRITE_DEADLINE_MS = 5_000;

/**
 * Writes these chunks now, `batchSize` at a time, if they wait for a write; resolves with those of them it could
 * not claim. Claimed as a background batch is: a chunk another replica is writing is left to it (its write of
 * the old revision is re-queued by markChunkStored), and nothing this write lost reaches the store.
 */
export async function writeChunksNow(
  deps: ChunkBatchDeps,
  claims: HeldClaims,
  chunkIds: readonly string[],
  batchSize: number,
): Promise<readonly string[]> {
  const chunks = await claims.claimAmong(chunkIds);
  const deadline = AbortSignal.timeout(EXCLUSIVE_WRITE_DEADLINE_MS);
  await claims.whileHeld(
    chunks,
    async (signal) => {
      for (let start = 0; start < chunks.length && !signal.aborted; start += batchSize) {
        await writeChunkBatch(deps, chunks.slice(start, start + batchSize), signal);
      }
    },
    deadline,
  );
  const claimed = new Set(chunks.map((chunk) => chunk.chunkId));
  return chunkIds.filter((id) => !claimed.has(id));
}
