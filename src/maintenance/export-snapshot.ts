/**
 * @module `memory-pool export`: writes one bot's collection (every point with its vector and payload,
 * SillyTavern's included) and its journal rows as snapshot lines. It only reads: the service may run.
 */
import { SNAPSHOT_TABLES, type SnapshotTable } from '../journal/journal-snapshot.js';
import type { Journal } from '../journal/journal.js';
import { StoreError } from '../errors/memory-pool-error.js';
import type { StoreAdmin } from '../store/store-admin.js';
import {
  type SnapshotHeader,
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  formatSnapshotLine,
} from './snapshot-format.js';

export interface ExportDeps {
  readonly store: StoreAdmin;
  readonly journal: Journal;
  readonly now?: () => number;
}

export interface ExportRequest {
  readonly bot: string;
  /** The collection the bot's memories are in now (after a reembed switch, the new one). */
  readonly collection: string;
  /** Receives the file's text, line by line; resolves when it may take more. */
  readonly write: (text: string) => Promise<void>;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface ExportSummary {
  readonly bot: string;
  readonly collection: string;
  readonly points: number;
  readonly rows: Partial<Record<SnapshotTable, number>>;
  readonly model: string | null;
}

/** Points read per store call. */
const PAGE = 256;

/** Writes the snapshot; throws StoreError when the collection does not exist. */
export async function exportSnapshot(deps: ExportDeps, request: ExportRequest): Promise<ExportSummary> {
  const { store, journal } = deps;
  const { bot, collection } = request;
  const details = await store.readCollection(collection);
  if (details === undefined) {
    throw new StoreError(
      'collection_missing',
      `collection ${collection} of bot ${bot} does not exist on the store: nothing to export. Check bots.${bot}.collection and store settings.`,
      { retryable: false },
    );
  }
  const vectors = details.layout.vectors as { size?: unknown; distance?: unknown } | undefined;
  const single = vectors !== undefined && typeof vectors.size === 'number';
  const model = (await journal.collectionModel(collection)) ?? null;
  const header: SnapshotHeader = {
    type: 'header',
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    bot,
    collection,
    vectorSize: single ? (vectors.size as number) : null,
    distance: single ? String(vectors.distance) : null,
    layout: details.layout,
    model,
    createdAt: new Date((deps.now ?? Date.now)()).toISOString(),
    parts: { included: false, rebuild: `memory-pool reindex --bot ${bot}` },
  };
  await request.write(formatSnapshotLine(header));
  let points = 0;
  let offset: string | number | undefined;
  do {
    const page = await store.scrollFullPoints(collection, {
      limit: PAGE,
      ...(offset === undefined ? {} : { offset }),
    });
    for (const p of page.points) {
      if (typeof p.id === 'number' && !Number.isSafeInteger(p.id)) throw unsafeId(collection, p.id);
      await request.write(
        formatSnapshotLine({ type: 'point', id: p.id, vector: p.vector, payload: p.payload }),
      );
    }
    points += page.points.length;
    request.onProgress?.(points, Math.max(points, details.pointsCount));
    offset = page.nextOffset;
  } while (offset !== undefined);
  const rows: Partial<Record<SnapshotTable, number>> = {};
  for (const table of SNAPSHOT_TABLES) {
    const tableRows = await journal.snapshots.readRows(table, { bot, collection });
    for (const row of tableRows) await request.write(formatSnapshotLine({ type: 'row', table, row }));
    rows[table] = tableRows.length;
  }
  await request.write(formatSnapshotLine({ type: 'end', points, rows }));
  return { bot, collection, points, rows, model: model?.model ?? null };
}

/**
 * An id past 2^53-1 reached memory-pool as a rounded JavaScript number: written down it would name another
 * point, and restore could not give the collection back. Refused before the snapshot says it is whole.
 */
function unsafeId(collection: string, id: number): StoreError {
  return new StoreError(
    'collection_incompatible',
    `collection ${collection} holds a point id above 2^53-1 (read as ${BigInt(id)}): memory-pool reads ids as JavaScript numbers, which cannot hold it exactly, so no snapshot of it would restore. ` +
      "Back it up with Qdrant's own snapshots (POST /collections/<name>/snapshots) instead.",
    { retryable: false },
  );
}
