/**
 * @module What a chunk batch step reads and writes (ChunkBatchDeps), and the pieces both halves of a write
 * share: a batch's chunks grouped by collection, with their vectors once embedded.
 */
import type { ChunkPayload, PeopleNames } from '../chunking/memory-message.js';
import type { MemoryPoolConfig } from '../config/config-types.js';
import type { Embedder } from '../embedding/embedder.js';
import type { Journal } from '../journal/journal.js';
import type { PlannedChunk } from '../journal/message-journal.js';
import type { Logger } from '../logging/logger.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { PartsIndex } from '../parts/parts-index.js';
import type { CollectionGuard } from '../store/collection-guard.js';
import type { PointStore } from '../store/point-store.js';
import type { ClaimCheck, ClaimedGroup } from './held-claims.js';
import type { OutageRecovery } from './outage-recovery.js';

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

/** A chunk of a batch and the payload its point carries. */
export type ChunkToWrite = { readonly chunk: PlannedChunk; readonly payload: ChunkPayload };

/** A collection's chunks of a batch with their vectors, ready to store (storeChunkBatch). */
export interface EmbeddedGroup extends ClaimedGroup<ChunkToWrite> {
  readonly collection: string;
  readonly embedder: Embedder;
}

/** The chunks as the parts index takes them. */
export function toIndexed(group: readonly ChunkToWrite[]) {
  return group.map((p) => ({ chunkId: p.chunk.chunkId, bot: p.chunk.bot, payload: p.payload }));
}

/** `items` by key, in order. */
export function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
