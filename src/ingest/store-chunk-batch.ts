/**
 * @module The second half of a chunk write: store a batch's embedded chunks and their parts (only those whose
 * claims are still held, checked right before each write), in a reembed's follower collection too, then
 * mark them stored in one journal commit.
 */
import { isMemoryPoolError } from '../errors/memory-pool-error.js';
import type { EmbeddedParts } from '../parts/parts-index.js';
import {
  type ChunkBatchDeps,
  type ChunkToWrite,
  type EmbeddedGroup,
  embedderOf,
  toIndexed,
} from './chunk-batch-deps.js';
import { type ClaimedGroup, keepClaimed } from './held-claims.js';
import { dependencyOf, recordChunkFailure, withDependency } from './record-chunk-failure.js';

/**
 * The second half of writeChunkBatch: stores each embedded group and marks its chunks stored (`signal` aborts
 * only the embedding for a reembed's follower collection).
 */
export async function storeChunkBatch(
  deps: ChunkBatchDeps,
  groups: readonly EmbeddedGroup[],
  signal?: AbortSignal,
): Promise<void> {
  for (const group of groups) await storeCollectionGroup(deps, group, signal);
}

async function storeCollectionGroup(
  deps: ChunkBatchDeps,
  embedded: EmbeddedGroup,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { journal, store, guard, metrics } = deps;
  const { collection, embedder } = embedded;
  // Only chunks whose claims this writer still holds reach the store: each write is preceded by the check (why the
  // order is safe: held-claims.ts). A chunk lost on the way is another writer's now and is not marked stored here.
  let kept: ClaimedGroup<ChunkToWrite> = embedded;
  try {
    await guard.ensureCollection(collection, embedder.model, kept.vectors[0]!.length);
    kept = await keepClaimed(deps.claims, kept);
    if (kept.parts !== undefined && deps.parts !== undefined && kept.group.length > 0) {
      await deps.parts.storeParts(collection, toIndexed(kept.group), kept.parts);
      kept = await keepClaimed(deps.claims, kept);
    }
    if (kept.group.length === 0) return;
    await store.upsertPoints(collection, toPoints(kept.group, kept.vectors));
    await deps.recovery?.succeeded('store');
    const follower = await deps.followerOf?.(collection);
    if (follower !== undefined) {
      const written = await writeToFollower(deps, follower, kept.group, signal);
      if (written === false) return;
      kept = { ...kept, group: written };
    }
    const stored = kept.group;
    const storedAt = deps.now();
    // One commit for the batch, not one fsync each (the revision check is per chunk, as before). A write
    // the chunk moved on from meanwhile (a forget, an edit, from another process) is put right: its point
    // is deleted or rewritten, never taken as current.
    await journal.transaction(async (tx) => {
      for (const p of stored) {
        if (await tx.chunks.markChunkStored(p.chunk.chunkId, p.chunk.revision, storedAt)) continue;
        await tx.chunks.requeueStaleWrite(p.chunk, storedAt);
      }
    });
    for (const p of stored) metrics.chunksStored.inc({ bot: p.chunk.bot });
  } catch (error) {
    // Deleted behind our back (SillyTavern, an admin): check again, and create it, on the next attempt; its
    // parts hold the deleted memories' text, so they go too.
    if (isMemoryPoolError(error) && error.code === 'collection_missing') {
      guard.invalidate(collection);
      await deps.parts?.dropIfCollectionGone(collection).catch((dropError: unknown) => {
        deps.logger.warn(
          { collection, err: dropError },
          'could not delete the parts of a deleted collection',
        );
      });
    }
    await recordChunkFailure(
      deps,
      kept.group.map((p) => p.chunk),
      error,
      withDependency(dependencyOf(error, 'store')),
    );
  }
}

/**
 * Writes the chunks just stored to the collection a reembed builds (with that collection's model), with the
 * same ids, parts first as for the collection in use, so nothing stored during the build is missing after
 * the switch, in the chunks or in the parts recall reads. Answers the chunks written (those whose claims were
 * still held at each write), false when aborted (the chunks stay due); throws on failure, so the chunks are
 * retried whole.
 */
async function writeToFollower(
  deps: ChunkBatchDeps,
  follower: string,
  group: readonly ChunkToWrite[],
  signal: AbortSignal | undefined,
): Promise<readonly ChunkToWrite[] | false> {
  const embedder = await embedderOf(deps, follower);
  let vectors: Float32Array[];
  let parts: EmbeddedParts | undefined;
  try {
    vectors = await embedder.embed(
      group.map((p) => p.payload.text),
      signal ? { signal } : {},
    );
    const embedded = await deps.parts?.embedParts(follower, toIndexed(group), signal);
    if (embedded === false) return false;
    parts = embedded;
  } catch (error) {
    if (signal?.aborted) return false;
    throw error;
  }
  await deps.guard.ensureCollection(follower, embedder.model, vectors[0]!.length);
  let kept = await keepClaimed(deps.claims, { group, vectors, parts });
  if (kept.parts !== undefined && deps.parts !== undefined && kept.group.length > 0) {
    await deps.parts.storeParts(follower, toIndexed(kept.group), kept.parts);
    kept = await keepClaimed(deps.claims, kept);
  }
  if (kept.group.length > 0) await deps.store.upsertPoints(follower, toPoints(kept.group, kept.vectors));
  return kept.group;
}

function toPoints(group: readonly ChunkToWrite[], vectors: readonly Float32Array[]) {
  return group.map((p, i) => ({
    id: p.chunk.chunkId,
    vector: vectors[i]!,
    payload: { ...p.payload },
  }));
}
