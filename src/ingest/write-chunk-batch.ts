/**
 * @module One step of the chunk writer: embed and upsert one batch of due chunks (or delete one batch of
 * points a forget asked to remove), then record the outcome in the journal. A failure is recorded with when
 * to try again; nothing is dropped.
 */
import { formatChunk } from '../chunking/chunk-format.js';
import type { ChunkPayload } from '../chunking/memory-message.js';
import type { MemoryPoolConfig } from '../config/config-types.js';
import type { Embedder } from '../embedding/embedder.js';
import { ConfigError, isMemoryPoolError } from '../errors/memory-pool-error.js';
import type { MessageJournal, PlannedChunk } from '../journal/message-journal.js';
import type { Logger } from '../logging/logger.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { PartsIndex } from '../parts/parts-index.js';
import type { CollectionGuard } from '../store/collection-guard.js';
import type { PointStore } from '../store/point-store.js';
import type { OutageRecovery, WriteDependency } from './outage-recovery.js';
import { computeRetryDelay } from './retry-delay.js';

/** What one batch step reads and writes. */
export interface ChunkBatchDeps {
  /** The configured bots: the only part of the config the writer reads. */
  readonly bots: MemoryPoolConfig['bots'];
  readonly journal: MessageJournal;
  readonly store: PointStore;
  readonly embedder: Embedder;
  readonly guard: CollectionGuard;
  readonly metrics: ServiceMetrics;
  readonly logger: Logger;
  readonly now: () => number;
  /** The fine-grained parts index: written before each chunk point, deleted before it. */
  readonly parts?: PartsIndex | undefined;
  /** Told which dependency each write failed or succeeded through, so an outage's backlog wakes when it ends. */
  readonly recovery?: Pick<OutageRecovery, 'failed' | 'succeeded'> | undefined;
}

/** Embeds and upserts `chunks` (one embedder call, one upsert per collection) and marks them stored. */
export async function writeChunkBatch(
  deps: ChunkBatchDeps,
  chunks: readonly PlannedChunk[],
  signal?: AbortSignal,
): Promise<void> {
  const { journal, embedder, store, guard, metrics } = deps;
  const points = chunks.flatMap((chunk) => {
    const payload = buildPayload(deps, chunk);
    return payload === undefined ? [] : [{ chunk, payload }];
  });
  if (points.length === 0) return;
  let vectors: Float32Array[];
  try {
    vectors = await embedder.embed(
      points.map((p) => p.payload.text),
      signal ? { signal } : {},
    );
    deps.recovery?.succeeded('embedder');
  } catch (error) {
    if (signal?.aborted) return; // gave way to a forget, a stop or a deadline: still due, not a failure
    if (points.length > 1 && isMemoryPoolError(error) && !error.retryable) {
      // The provider refused the input (too long, bad characters): find the chunk, let the others through.
      for (const p of points) await writeChunkBatch(deps, [p.chunk], signal);
      return;
    }
    recordChunkFailure(
      deps,
      points.map((p) => p.chunk),
      error,
      { dependency: 'embedder' },
    );
    return;
  }
  const byCollection = groupBy(
    points.map((p, i) => ({ ...p, vector: vectors[i]! })),
    (p) => p.chunk.collection,
  );
  for (const [collection, group] of byCollection) {
    try {
      await guard.ensureCollection(collection, embedder.model, group[0]!.vector.length);
      const partsWritten = await deps.parts?.writeParts(
        collection,
        group.map((p) => ({ chunkId: p.chunk.chunkId, bot: p.chunk.bot, payload: p.payload })),
        signal,
      );
      if (partsWritten === false) return; // aborted like the embedding above: still due, not a failure
      await store.upsertPoints(
        collection,
        group.map((p) => ({
          id: p.chunk.chunkId,
          vector: Array.from(p.vector),
          payload: { ...p.payload },
        })),
      );
      deps.recovery?.succeeded('store');
      const storedAt = deps.now();
      // One commit for the batch, not one fsync each (the revision check is per chunk, as before).
      journal.transaction(() => {
        for (const p of group) journal.chunks.markChunkStored(p.chunk.chunkId, p.chunk.revision, storedAt);
      });
      for (const p of group) metrics.chunksStored.inc({ bot: p.chunk.bot });
    } catch (error) {
      // Deleted behind our back (SillyTavern, an admin): check again, and create it, on the next attempt.
      if (isMemoryPoolError(error) && error.code === 'collection_missing') guard.invalidate(collection);
      recordChunkFailure(
        deps,
        group.map((p) => p.chunk),
        error,
        { dependency: dependencyOf(error, 'store') },
      );
    }
  }
}

/** Removes points a forget asked to remove; their chunks are then rewritten without the forgotten messages. */
export async function deleteChunkBatch(deps: ChunkBatchDeps, chunks: readonly PlannedChunk[]): Promise<void> {
  const { journal, store, parts } = deps;
  for (const [collection, group] of groupBy(chunks, (c) => c.collection)) {
    try {
      await parts?.deleteParts(
        collection,
        group.map((c) => c.chunkId),
      );
      await store.deletePoints(collection, { ids: group.map((c) => c.chunkId) });
      deps.recovery?.succeeded('store');
      journal.transaction(() => {
        for (const chunk of group) journal.chunks.markChunkDeleted(chunk.chunkId, chunk.revision);
      });
    } catch (error) {
      recordChunkFailure(deps, group, error, { dependency: dependencyOf(error, 'store') });
    }
  }
}

/** Builds one chunk's payload; a chunk that cannot be built fails alone, never the batch. */
function buildPayload(deps: ChunkBatchDeps, chunk: PlannedChunk): ChunkPayload | undefined {
  const bot = deps.bots[chunk.bot];
  try {
    if (bot === undefined) {
      throw new ConfigError(
        `bots.${chunk.bot}`,
        'is no longer configured; add it back to write its pending chunks',
      );
    }
    return formatChunk(deps.journal.chunks.chunkMessages(chunk.chunkId), bot);
  } catch (error) {
    recordChunkFailure(deps, [chunk], error, { permanent: true });
    return undefined;
  }
}

/** The dependency an error came from: the parts index embeds as well as stores. */
function dependencyOf(error: unknown, step: WriteDependency): WriteDependency {
  return isMemoryPoolError(error) && error.code.startsWith('embedding_') ? 'embedder' : step;
}

/**
 * Records a failed attempt and when to try again; nothing is dropped. A chunk changed meanwhile (edit,
 * forget) keeps its new, immediate due time: the failure was about its old content. A retryable failure of
 * a dependency is also reported to the outage recovery, which wakes the chunk when the dependency is back.
 */
function recordChunkFailure(
  deps: ChunkBatchDeps,
  chunks: readonly PlannedChunk[],
  error: unknown,
  options: { permanent?: boolean; dependency?: WriteDependency } = {},
): void {
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
  journal.transaction(() => {
    for (const chunk of chunks) {
      const delay = computeRetryDelay(chunk.attempts, { retryable });
      journal.chunks.markChunkFailed(chunk.chunkId, chunk.revision, message, deps.now() + delay);
    }
  });
  for (const chunk of chunks) metrics.chunkFailures.inc({ bot: chunk.bot, code });
  logger.warn(
    { code, chunks: chunks.length, attempts: chunks[0]?.attempts, err: message },
    'could not store chunks; will retry',
  );
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
