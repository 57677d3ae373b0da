/**
 * @module A failed chunk write recorded in the journal with when to try again (nothing is dropped), and told
 * to the outage recovery when a dependency (the store, the embedder) failed it.
 */
import { isMemoryPoolError } from '../errors/memory-pool-error.js';
import type { PlannedChunk } from '../journal/message-journal.js';
import type { ChunkBatchDeps } from './chunk-batch-deps.js';
import type { WriteDependency } from './outage-recovery.js';
import { computeRetryDelay } from './retry-delay.js';

export /**
 * The dependency an error came from: the parts index embeds as well as stores. A journal error (the claim check
 * before each store write, markChunkStored) is no outage of either (review s25 finding 3): probing a store that
 * is fine would blame it in the logs and metrics.
 */
function dependencyOf(error: unknown, step: WriteDependency): WriteDependency | undefined {
  if (isMemoryPoolError(error) && error.code === 'journal_unavailable') return undefined;
  return isMemoryPoolError(error) && error.code.startsWith('embedding_') ? 'embedder' : step;
}

export /**
 * Records a failed attempt and when to try again; nothing is dropped. A chunk changed meanwhile (edit,
 * forget) keeps its new, immediate due time: the failure was about its old content. A retryable failure of
 * a dependency is also reported to the outage recovery, which wakes the chunk when the dependency is back.
 */
async function recordChunkFailure(
  deps: ChunkBatchDeps,
  chunks: readonly PlannedChunk[],
  error: unknown,
  options: { permanent?: boolean; dependency?: WriteDependency } = {},
): Promise<void> {
  const { journal, metrics, logger } = deps;
  const code = isMemoryPoolError(error) ? error.code : 'internal';
  const retryable = options.permanent !== true && (!isMemoryPoolError(error) || error.retryable);
  if (retryable && options.dependency !== undefined) {
    deps.recovery?.failed(
      options.dependency,
      chunks.map((c) => c.chunkId),
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  await journal.transaction(async (tx) => {
    for (const chunk of chunks) {
      const delay = computeRetryDelay(chunk.attempts, { retryable });
      await tx.chunks.markChunkFailed(chunk.chunkId, chunk.revision, message, deps.now() + delay);
    }
  });
  for (const chunk of chunks) metrics.chunkFailures.inc({ bot: chunk.bot, code });
  logger.warn(
    { code, chunks: chunks.length, attempts: chunks[0]?.attempts, err: message },
    'could not store chunks; will retry',
  );
}

/** The options of recordChunkFailure for `dependency`, when there is one. */
export function withDependency(dependency: WriteDependency | undefined): { dependency?: WriteDependency } {
  return dependency === undefined ? {} : { dependency };
}
