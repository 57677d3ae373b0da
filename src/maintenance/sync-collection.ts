/**
 * @module Brings one collection in line with another under a different embedding model: every point of
 * `from` is embedded again from its chunk text (SillyTavern's too) and written to `to` with the same id
 * and payload, and memory-pool chunks forgotten meanwhile are deleted from `to`. Passes repeat until one
 * changes nothing, so writes that reached `from` during a pass are taken by the next, and a run that was
 * stopped resumes where it was: what `to` already holds unchanged is not embedded again.
 */
import type { Embedder } from '../embedding/embedder.js';
import type { Journal } from '../journal/journal.js';
import { createCollectionGuard } from '../store/collection-guard.js';
import { CHUNKS_INDEXES, prepareServiceIndexesBeforeWrites } from '../store/service-indexes.js';
import type { HybridPointStore } from '../store/hybrid-point-store.js';
import type { TimelineStore } from '../store/timeline-store.js';
import type { PointStore, StoredPointId, StoredRecord } from '../store/point-store.js';
import { formatCanonicalJson } from './snapshot-format.js';

export interface SyncDeps {
  readonly store: PointStore &
    HybridPointStore &
    Pick<TimelineStore, 'requestFloatIndex' | 'requestKeywordIndex'>;
  readonly journal: Journal;
  /** The model of `to`. */
  readonly embedder: Embedder;
}

export interface SyncRequest {
  readonly from: string;
  readonly to: string;
  readonly dryRun: boolean;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface SyncResult {
  readonly points: number;
  /** Points embedded and written to `to` (in a dry run: that would be). */
  readonly embedded: number;
  /** Forgotten memory-pool chunks deleted from `to`. */
  readonly deleted: number;
  /** Points of `from` without a text to embed: they cannot move, so no switch may happen. */
  readonly withoutText: readonly StoredPointId[];
  readonly passes: number;
}

/** Points read and embedded per step. */
const PAGE = 64;
/** A service saving without pause could keep every pass busy; past this many, the caller is told to retry. */
const MAX_PASSES = 8;

export async function syncCollection(
  deps: SyncDeps,
  request: SyncRequest,
): Promise<SyncResult & { settled: boolean }> {
  let embedded = 0;
  let deleted = 0;
  let withoutText: StoredPointId[] = [];
  let points = 0;
  for (let pass = 1; pass <= MAX_PASSES; pass += 1) {
    const copied = await copyChangedPoints(deps, request, pass === 1 ? request.onProgress : undefined);
    const removed = request.dryRun ? 0 : copied.vanished + (await deleteForgottenPoints(deps, request));
    embedded += copied.embedded;
    deleted += removed;
    withoutText = copied.withoutText;
    points = copied.points;
    if (request.dryRun || copied.embedded + removed === 0) {
      return { points, embedded, deleted, withoutText, passes: pass, settled: true };
    }
  }
  return { points, embedded, deleted, withoutText, passes: MAX_PASSES, settled: false };
}

async function copyChangedPoints(
  deps: SyncDeps,
  request: SyncRequest,
  onProgress?: SyncRequest['onProgress'],
) {
  const { store, embedder } = deps;
  // The target is the bot's chunks collection once serve switches to it: filtered by dmWith, ordered by timestamp in
  // the viewer. Best effort, as in serve: a failure costs recall the index, not the copy, and serve asks again at start.
  const guard = createCollectionGuard(store, deps.journal, {
    prepare: prepareServiceIndexesBeforeWrites(store, CHUNKS_INDEXES, () => undefined),
  });
  const total = await store.countPoints(request.from);
  const targetExists = (await store.describeCollection(request.to)) !== undefined;
  let done = 0;
  let embedded = 0;
  let vanished = 0;
  const withoutText: StoredPointId[] = [];
  for await (const page of scrollPages(store, request.from)) {
    const current = new Map<StoredPointId, StoredRecord>();
    if (targetExists || !request.dryRun) {
      for (const record of await retrieveIfExists(
        store,
        request.to,
        page.points.map((p) => p.id),
      )) {
        current.set(record.id, record);
      }
    }
    const changed = page.points.filter((p) => {
      if (typeof p.payload.text !== 'string') {
        withoutText.push(p.id);
        return false;
      }
      const there = current.get(p.id);
      return there === undefined || formatCanonicalJson(there.payload) !== formatCanonicalJson(p.payload);
    });
    if (changed.length > 0 && !request.dryRun) {
      const vectors = await embedder.embed(changed.map((p) => p.payload.text as string));
      await guard.ensureCollection(request.to, embedder.model, vectors[0]!.length);
      await store.upsertPoints(
        request.to,
        changed.map((p, i) => ({ id: p.id, vector: Array.from(vectors[i]!), payload: p.payload })),
      );
      vanished += await deleteVanished(store, request, changed);
    }
    embedded += changed.length;
    done += page.points.length;
    onProgress?.(done, Math.max(done, total));
  }
  return { points: done, embedded, vanished, withoutText };
}

/**
 * Deletes from `to` the points just written that left `from` since their page was read: a forget (SillyTavern's
 * points by id too, which the journal cannot vouch for later) deletes from `from`, then from `to`, so one that
 * ran between the read and the write would otherwise come back in `to`. Returns how many.
 */
async function deleteVanished(
  store: PointStore & HybridPointStore,
  request: SyncRequest,
  written: readonly StoredRecord[],
): Promise<number> {
  const ids = written.map((p) => p.id);
  const still = new Set((await retrieveIfExists(store, request.from, ids)).map((r) => r.id));
  const gone = ids.filter((id) => !still.has(id));
  if (gone.length > 0) await store.deletePoints(request.to, { ids: gone });
  return gone.length;
}

/**
 * Deletes from `to` the memory-pool chunks that left `from` because they were forgotten (the journal no
 * longer has them). A point that left `from` for another reason (SillyTavern's, deleted by its own client)
 * is kept: nothing is deleted that the journal cannot vouch for.
 */
async function deleteForgottenPoints(deps: SyncDeps, request: SyncRequest): Promise<number> {
  const { store, journal } = deps;
  if ((await store.describeCollection(request.to)) === undefined) return 0;
  const gone: StoredPointId[] = [];
  for await (const page of scrollPages(store, request.to)) {
    const present = new Set(
      (
        await retrieveIfExists(
          store,
          request.from,
          page.points.map((p) => p.id),
        )
      ).map((r) => r.id),
    );
    // The page's journal reads are sent together (the port has no batched "which of these chunks exist").
    const candidates = page.points.filter((p) => !present.has(p.id) && typeof p.payload.source === 'string');
    const known = await Promise.all(candidates.map((p) => journal.chunks.hasChunk(String(p.id))));
    candidates.forEach((p, i) => {
      if (!known[i]) gone.push(p.id);
    });
  }
  if (gone.length > 0) await store.deletePoints(request.to, { ids: gone });
  return gone.length;
}

async function retrieveIfExists(store: HybridPointStore, collection: string, ids: readonly StoredPointId[]) {
  try {
    return await store.retrievePoints(collection, ids);
  } catch (error) {
    if ((error as { code?: string }).code === 'collection_missing') return [];
    throw error;
  }
}

/** A collection's points, one page of payloads at a time, in id order. */
async function* scrollPages(
  store: PointStore,
  collection: string,
): AsyncGenerator<{ points: StoredRecord[] }> {
  let offset: StoredPointId | undefined;
  do {
    const page = await store.scrollPoints(collection, {
      limit: PAGE,
      ...(offset === undefined ? {} : { offset }),
    });
    offset = page.nextOffset;
    yield page;
  } while (offset !== undefined);
}
