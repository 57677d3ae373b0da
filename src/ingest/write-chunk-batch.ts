/**
 * @module One step of the chunk writer: embed one batch of due chunks (embedChunkBatch), store it
 * (store-chunk-batch.ts) and record the outcome in the journal, or delete one batch of points a forget asked
 * to remove. A failure is recorded with when to try again (record-chunk-failure.ts); nothing is dropped.
 */
import { formatChunk } from '../chunking/chunk-format.js';
import type { ChunkPayload } from '../chunking/memory-message.js';
import type { Embedder } from '../embedding/embedder.js';
import { ConfigError, isMemoryPoolError } from '../errors/memory-pool-error.js';
import type { PlannedChunk } from '../journal/message-journal.js';
import {
  type ChunkBatchDeps,
  type ChunkToWrite,
  type EmbeddedGroup,
  embedderOf,
  groupBy,
  toIndexed,
} from './chunk-batch-deps.js';
import { embedChunksAndParts } from './derive-chunk-vectors.js';
import { dependencyOf, recordChunkFailure, withDependency } from './record-chunk-failure.js';
import { storeChunkBatch } from './store-chunk-batch.js';

export type { ChunkBatchDeps } from './chunk-batch-deps.js';

/**
 * Embeds and upserts `chunks` (one embedder call and one upsert per collection) and marks them stored; a
 * chunk whose collection a reembed is building a successor of is written there too before it counts as stored.
 */
export async function writeChunkBatch(
  deps: ChunkBatchDeps,
  chunks: readonly PlannedChunk[],
  signal?: AbortSignal,
): Promise<void> {
  await storeChunkBatch(deps, await embedChunkBatch(deps, chunks, signal), signal);
}

/**
 * The first half of writeChunkBatch: builds the chunks' payloads and embeds them and their parts, one model
 * call per collection; stores nothing, so the chunk writer embeds the next batch while this one is stored.
 * A chunk that cannot be built or embedded has its failure recorded and is left out. Aborted by `signal`
 * (a forget, a stop): resolves with what was embedded so far, which the caller then does not store.
 */
export async function embedChunkBatch(
  deps: ChunkBatchDeps,
  chunks: readonly PlannedChunk[],
  signal?: AbortSignal,
): Promise<EmbeddedGroup[]> {
  // The batch's journal reads are sent together: one round trip's wait on Postgres, not one per chunk.
  const payloads = await Promise.all(chunks.map((chunk) => buildPayload(deps, chunk)));
  const points = chunks.flatMap((chunk, i) => {
    const payload = payloads[i];
    return payload === undefined ? [] : [{ chunk, payload }];
  });
  const embedded: EmbeddedGroup[] = [];
  for (const [collection, group] of groupBy(points, (p) => p.chunk.collection)) {
    if (signal?.aborted) break;
    embedded.push(...(await embedCollectionGroup(deps, collection, group, signal)));
  }
  return embedded;
}

async function embedCollectionGroup(
  deps: ChunkBatchDeps,
  collection: string,
  group: readonly ChunkToWrite[],
  signal: AbortSignal | undefined,
): Promise<EmbeddedGroup[]> {
  let embedder: Embedder;
  try {
    embedder = await embedderOf(deps, collection);
  } catch (error) {
    // The model a reembed recorded for this collection cannot be set up (a `${VAR}` unset): retried later.
    await recordChunkFailure(
      deps,
      group.map((p) => p.chunk),
      error,
    );
    return [];
  }
  const toIndex = toIndexed(group);
  try {
    // Parts and chunks in one model call; a long chunk's vector is derived from its parts' instead.
    const index = deps.parts;
    const planned =
      index === undefined
        ? undefined
        : {
            points: await index.planPoints(toIndex, collection),
            embedder: await index.embedderOf(collection),
          };
    const embedded = await embedChunksAndParts(
      embedder,
      toIndex.map((c) => ({ chunkId: c.chunkId, text: c.payload.text })),
      planned,
      signal ? { signal } : {},
    );
    await deps.recovery?.succeeded('embedder');
    return [{ collection, embedder, group, vectors: embedded.chunks, parts: embedded.parts }];
  } catch (error) {
    if (signal?.aborted) return []; // gave way to a forget, a stop or a deadline: still due, not a failure
    if (group.length > 1 && isMemoryPoolError(error) && !error.retryable) {
      // The provider refused the input (too long, bad characters): find the chunk, let the others through.
      const alone: EmbeddedGroup[] = [];
      for (const p of group) alone.push(...(await embedCollectionGroup(deps, collection, [p], signal)));
      return alone;
    }
    await recordChunkFailure(
      deps,
      group.map((p) => p.chunk),
      error,
      { dependency: 'embedder' },
    );
    return [];
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
      await deps.recovery?.succeeded('store');
      // A forget during a reembed: the collection being built must lose the point too.
      const follower = await deps.followerOf?.(collection);
      if (follower !== undefined && (await store.describeCollection(follower)) !== undefined) {
        await parts?.deleteParts(
          follower,
          group.map((c) => c.chunkId),
        );
        await store.deletePoints(follower, { ids: group.map((c) => c.chunkId) });
      }
      const deletedAt = deps.now();
      await journal.transaction(async (tx) => {
        for (const chunk of group) await tx.chunks.markChunkDeleted(chunk.chunkId, chunk.revision, deletedAt);
      });
    } catch (error) {
      await recordChunkFailure(deps, group, error, withDependency(dependencyOf(error, 'store')));
    }
  }
}

/** Builds one chunk's payload; a chunk that cannot be built fails alone, never the batch. */
async function buildPayload(deps: ChunkBatchDeps, chunk: PlannedChunk): Promise<ChunkPayload | undefined> {
  const bot = deps.bots[chunk.bot];
  try {
    if (bot === undefined) {
      throw new ConfigError(
        `bots.${chunk.bot}`,
        'is no longer configured; add it back to write its pending chunks',
      );
    }
    const people = await deps.peopleNames?.(bot.name);
    return formatChunk(await deps.journal.chunks.chunkMessages(chunk.chunkId), { ...bot, people });
  } catch (error) {
    await recordChunkFailure(deps, [chunk], error, { permanent: true });
    return undefined;
  }
}
