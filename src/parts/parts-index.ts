/**
 * @module The write side of the parts index, called by the chunk writer: a chunk's parts are written before
 * the chunk point (so a stored chunk always has its parts) and deleted before it (so a forgotten message
 * never outlives its chunk in a part). Parts of a rewritten chunk replace the old ones.
 */
import type { ChunkPayload } from '../chunking/memory-message.js';
import type { MemoryPoolConfig } from '../config/config-types.js';
import type { Embedder } from '../embedding/embedder.js';
import type { Journal } from '../journal/journal.js';
import { createPeopleNames, type PeopleNamesFor } from '../people/people-names.js';
import type { HybridPointStore } from '../store/hybrid-point-store.js';
import type { PointStore, StoreFilter } from '../store/point-store.js';
import { allOf, hasId, matchAny, noneOf } from '../store/store-filters.js';
import { buildPartPoints, MESSAGES_PER_PART, type PartPoint } from './build-part-points.js';
import { partsCollectionName } from './parts-collection-name.js';
import type { PartsGuard } from './parts-guard.js';
import { encodeDocumentTerms } from './sparse-vector.js';
import { tokenizeText } from './tokenize-text.js';

export interface PartsIndexDeps {
  /** The configured bots: the only part of the config the parts index reads. */
  readonly bots: MemoryPoolConfig['bots'];
  readonly journal: Journal;
  readonly store: PointStore & HybridPointStore;
  readonly embedder: Embedder;
  readonly guard: PartsGuard;
  /** The embedder of a collection a reembed built with another model (default: `embedder` for all). */
  readonly embedderFor?: ((collection: string) => Promise<Embedder>) | undefined;
  /**
   * The bot's linked people (docs/people.md), so a part names a linked account as its chunk does (the writer's
   * cache; default: a cache of this index's own).
   */
  readonly peopleNames?: PeopleNamesFor | undefined;
}

/** A chunk about to be stored: its point id, bot and payload (its messages are read from the journal). */
export interface ChunkToIndex {
  readonly chunkId: string;
  readonly bot: string;
  readonly payload: ChunkPayload;
}

/** Parts planned and embedded, not yet stored: `vectors[i]` is `points[i]`'s. */
export interface EmbeddedParts {
  readonly points: readonly PartPoint[];
  readonly vectors: readonly Float32Array[];
}

/** The filter of every part of these chunks. */
export function partsOfChunks(chunkIds: readonly string[]): StoreFilter {
  return allOf(matchAny('chunkId', chunkIds));
}

export class PartsIndex {
  readonly #deps: PartsIndexDeps;
  readonly #peopleNames: PeopleNamesFor;

  constructor(deps: PartsIndexDeps) {
    this.#deps = deps;
    this.#peopleNames = deps.peopleNames ?? createPeopleNames(deps.journal);
  }

  /**
   * Writes the parts of chunks of one collection, replacing what an earlier version of each chunk had.
   * False when `signal` aborted the embedding (nothing was written: the chunks stay due); throws on failure.
   */
  async writeParts(
    collection: string,
    chunks: readonly ChunkToIndex[],
    signal?: AbortSignal,
  ): Promise<boolean> {
    const embedded = await this.embedParts(collection, chunks, signal);
    if (embedded === false) return false;
    await this.storeParts(collection, chunks, embedded);
    return true;
  }

  /**
   * Plans and embeds the parts of chunks of one collection, storing nothing (writeParts stores them; the chunk
   * writer plans with planPoints and embeds parts and chunks in one call). False when `signal` aborted.
   */
  async embedParts(
    collection: string,
    chunks: readonly ChunkToIndex[],
    signal?: AbortSignal,
  ): Promise<EmbeddedParts | false> {
    const points = await this.planPoints(chunks, collection);
    if (points.length === 0) return { points, vectors: [] };
    try {
      const vectors = await (await this.embedderOf(collection)).embed(
        points.map((p) => p.payload.text),
        signal ? { signal } : {},
      );
      return { points, vectors };
    } catch (error) {
      if (signal?.aborted) return false;
      throw error;
    }
  }

  /**
   * Stores parts embedParts made for `chunks`, and deletes the parts an earlier version of them had: all of
   * them for a chunk whose version has none (its bot left the config, its messages went meanwhile), since each
   * old part holds a piece of the old text.
   */
  async storeParts(
    collection: string,
    chunks: readonly ChunkToIndex[],
    embedded: EmbeddedParts,
  ): Promise<void> {
    const { store, guard } = this.#deps;
    const { points, vectors } = embedded;
    if (chunks.length === 0) return;
    const parts = partsCollectionName(collection);
    if (points.length > 0) {
      await guard.ensureParts(collection, (await this.embedderOf(collection)).model, vectors[0]!.length);
      await store.upsertHybridPoints(
        parts,
        points.map((p, i) => ({
          id: p.id,
          dense: vectors[i]!,
          sparse: encodeDocumentTerms(tokenizeText(p.payload.text)),
          payload: { ...p.payload },
        })),
      );
    }
    // Parts an earlier version of these chunks had and this one does not (a forget changed the windows, or
    // the version has no parts at all). A parts collection not created yet holds none: the store skips it.
    const stale = partsOfChunks(chunks.map((c) => c.chunkId));
    await store.deletePoints(parts, {
      filter: points.length === 0 ? stale : allOf(stale, noneOf(hasId(points.map((p) => p.id)))),
    });
  }

  /** The embedder of `collection`'s parts: the model its chunks are embedded with. */
  async embedderOf(collection: string): Promise<Embedder> {
    return (await this.#deps.embedderFor?.(collection)) ?? this.#deps.embedder;
  }

  /** The part points of these chunks, from their messages in the journal, as writeParts would store them. */
  async planPoints(chunks: readonly ChunkToIndex[], collection: string): Promise<PartPoint[]> {
    const { journal, bots } = this.#deps;
    const embedder = await this.embedderOf(collection);
    const plan = {
      messagesPerPart: MESSAGES_PER_PART,
      maxTokens: embedder.inputWindow.maxTokens,
      countTokens: (text: string) => embedder.inputWindow.countTokens(text),
    };
    // Read together: one round trip's wait on Postgres, not one per chunk.
    const held = await Promise.all(chunks.map((chunk) => journal.chunks.chunkMessages(chunk.chunkId)));
    const names = new Map(
      await Promise.all(
        [...new Set(chunks.map((chunk) => chunk.bot))].map(
          async (bot) => [bot, await this.#peopleNames(bot)] as const,
        ),
      ),
    );
    return chunks.flatMap((chunk, i) => {
      const bot = bots[chunk.bot];
      if (bot === undefined) return [];
      const speakers = { ...bot, people: names.get(chunk.bot) };
      return buildPartPoints(chunk.chunkId, chunk.payload, held[i]!, speakers, plan);
    });
  }

  /** Deletes every part of these chunks (before their points are deleted). */
  async deleteParts(collection: string, chunkIds: readonly string[]): Promise<void> {
    if (chunkIds.length === 0) return;
    await this.#deps.store.deletePoints(partsCollectionName(collection), { filter: partsOfChunks(chunkIds) });
  }

  /** After the store said `collection` is gone: deletes its parts too (see PartsGuard.dropIfCollectionGone). */
  dropIfCollectionGone(collection: string): Promise<boolean> {
    return this.#deps.guard.dropIfCollectionGone(collection);
  }

  /** Deletes the parts a bulk forget's filter selects (parts carry the fields it filters on). */
  async deleteMatching(collection: string, filter: StoreFilter): Promise<void> {
    await this.#deps.store.deletePoints(partsCollectionName(collection), { filter });
  }
}
