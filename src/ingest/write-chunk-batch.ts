/**
 * @module One step of the chunk writer: embed and upsert one batch of due chunks (or delete one batch of
 * points a forget asked to remove), then record the outcome in the journal. A failure is recorded with when
 * to try again; nothing is dropped.
 */
import { formatChunk } from '../chunking/chunk-format.js';
import type { ChunkPayload, PeopleNames } from '../chunking/memory-message.js';
import type { MemoryPoolConfig } from '../config/config-types.js';
import type { Embedder } from '../embedding/embedder.js';
import { ConfigError, isMemoryPoolError } from '../errors/memory-pool-error.js';
import type { Journal } from '../journal/journal.js';
import type { PlannedChunk } from '../journal/message-journal.js';
import type { Logger } from '../logging/logger.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { EmbeddedParts, PartsIndex } from '../parts/parts-index.js';
import type { CollectionGuard } from '../store/collection-guard.js';
import type { PointStore } from '../store/point-store.js';
import { embedChunksAndParts } from './derive-chunk-vectors.js';
import { type ClaimCheck, type ClaimedGroup, keepClaimed } from './held-claims.js';
import type { OutageRecovery, WriteDependency } from './outage-recovery.js';
import { computeRetryDelay } from './retry-delay.js';

/** What one batch step reads and writes. */
export interface ChunkBatchDeps {
  /** The configured bots: the only part of the config the writer reads. */
  readonly bots: MemoryPoolConfig['bots'];
  readonly journal: Journal;
  readonly store: PointStore;
  readonly embedder: Embedder;
  readonly guard: CollectionGuard;
  readonly metrics: ServiceMetrics;
  readonly logger: Logger;
  readonly now: () => number;
  /** Right before each store write: which chunks this writer still holds the claims of (the others are skipped). */
  readonly claims: ClaimCheck;
  /** The fine-grained parts index: written before each chunk point, deleted before it. */
  readonly parts?: PartsIndex | undefined;
  /** Told which dependency each write failed or succeeded through, so an outage's backlog wakes when it ends. */
  readonly recovery?: Pick<OutageRecovery, 'failed' | 'succeeded'> | undefined;
  /** The embedder of a collection a reembed built with another model (default: `embedder` for all). */
  readonly embedderFor?: ((collection: string) => Promise<Embedder>) | undefined;
  /**
   * The collection a chunk stored in `collection` must reach too (a reembed in progress, or a switch that
   * happened during the write), asked after each write; undefined when none.
   */
  readonly followerOf?: ((collection: string) => Promise<string | undefined>) | undefined;
  /** The bot's linked people (src/people/people-names.ts): a linked account's chunks carry the person's name. */
  readonly peopleNames?: ((bot: string) => Promise<PeopleNames>) | undefined;
}

/** The embedder that writes `collection`'s vectors. */
export async function embedderOf(
  deps: Pick<ChunkBatchDeps, 'embedder' | 'embedderFor'>,
  collection: string,
): Promise<Embedder> {
  return (await deps.embedderFor?.(collection)) ?? deps.embedder;
}

/**
 * Embeds and upserts `chunks` (one embedder call and one upsert per collection) and marks them stored; a
 * chunk whose collection a reembed is building a successor of is written there too before it counts as stored.
 */
export async function writeChunkBatch(
  deps: ChunkBatchDeps,
  chunks: readonly PlannedChunk[],
  signal?: AbortSignal,
): Promise<void> {
  // The batch's journal reads are sent together: one round trip's wait on Postgres, not one per chunk.
  const payloads = await Promise.all(chunks.map((chunk) => buildPayload(deps, chunk)));
  const points = chunks.flatMap((chunk, i) => {
    const payload = payloads[i];
    return payload === undefined ? [] : [{ chunk, payload }];
  });
  for (const [collection, group] of groupBy(points, (p) => p.chunk.collection)) {
    if (signal?.aborted) return;
    await writeCollectionGroup(deps, collection, group, signal);
  }
}

type ChunkToWrite = { readonly chunk: PlannedChunk; readonly payload: ChunkPayload };

async function writeCollectionGroup(
  deps: ChunkBatchDeps,
  collection: string,
  group: readonly ChunkToWrite[],
  signal: AbortSignal | undefined,
): Promise<void> {
  const { journal, store, guard, metrics } = deps;
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
    return;
  }
  const toIndex = toIndexed(group);
  let parts: EmbeddedParts | undefined;
  let vectors: Float32Array[];
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
    parts = embedded.parts;
    vectors = embedded.chunks;
    await deps.recovery?.succeeded('embedder');
  } catch (error) {
    if (signal?.aborted) return; // gave way to a forget, a stop or a deadline: still due, not a failure
    if (group.length > 1 && isMemoryPoolError(error) && !error.retryable) {
      // The provider refused the input (too long, bad characters): find the chunk, let the others through.
      for (const p of group) await writeCollectionGroup(deps, collection, [p], signal);
      return;
    }
    await recordChunkFailure(
      deps,
      group.map((p) => p.chunk),
      error,
      { dependency: 'embedder' },
    );
    return;
  }
  // Only chunks whose claims this writer still holds reach the store: each write is preceded by the check (why the
  // order is safe: held-claims.ts). A chunk lost on the way is another writer's now and is not marked stored here.
  let kept: ClaimedGroup<ChunkToWrite> = { group, vectors, parts };
  try {
    await guard.ensureCollection(collection, embedder.model, vectors[0]!.length);
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

function toIndexed(group: readonly ChunkToWrite[]) {
  return group.map((p) => ({ chunkId: p.chunk.chunkId, bot: p.chunk.bot, payload: p.payload }));
}

function toPoints(group: readonly ChunkToWrite[], vectors: readonly Float32Array[]) {
  return group.map((p, i) => ({
    id: p.chunk.chunkId,
    vector: vectors[i]!,
    payload: { ...p.payload },
  }));
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

/**
 * The dependency an error came from: the parts index embeds as well as stores. A journal error (the claim check
 * before each store write, markChunkStored) is no outage of either (review s25 finding 3): probing a store that
 * is fine would blame it in the logs and metrics.
 */
function dependencyOf(error: unknown, step: WriteDependency): WriteDependency | undefined {
  if (isMemoryPoolError(error) && error.code === 'journal_unavailable') return undefined;
  return isMemoryPoolError(error) && error.code.startsWith('embedding_') ? 'embedder' : step;
}

/**
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

function withDependency(dependency: WriteDependency | undefined): { dependency?: WriteDependency } {
  return dependency === undefined ? {} : { dependency };
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
