/**
 * @module `memory-pool restore`: writes a snapshot back into an empty collection on any store, after
 * checking the whole file and the target against its header. Resumable: a restore interrupted halfway
 * continues when run again (points are upserts, journal rows already there are kept), and a finished one
 * changes nothing.
 */
import { createHash } from 'node:crypto';
import { StoreError, ValidationError } from '../errors/memory-pool-error.js';
import type { JournalRow, RowOrigin, SnapshotNames, SnapshotTable } from '../journal/journal-snapshot.js';
import type { Journal } from '../journal/journal.js';
import { dropLeftParts } from '../parts/parts-ownership.js';
import type { FullStorePoint, StoreAdmin } from '../store/store-admin.js';
import { CHUNKS_INDEXES, type IndexingStore, prepareServiceIndexes } from '../store/service-indexes.js';
import { readNumberedSnapshotLines, readSnapshotLines, type SnapshotSource } from './read-snapshot.js';
import { type SnapshotHeader, formatCanonicalJson, formatSnapshotLine } from './snapshot-format.js';
import { countNoun } from '../runtime/count-noun.js';
import { listRestoredUserAccounts } from './restored-accounts.js';
import { dropPersonDmWith } from './restored-dm-with.js';

export interface RestoreDeps {
  readonly store: StoreAdmin;
  /** Asks for the service's payload indexes on a collection the restore creates (absent: not asked). */
  readonly indexes?: IndexingStore;
  readonly journal: Journal;
  readonly now?: () => number;
}

export interface RestoreRequest {
  readonly file: string;
  readonly source: SnapshotSource;
  readonly bot: string;
  readonly collection: string;
  /** The model the config embeds with, to warn when the restored vectors are another model's. */
  readonly configuredModel: string;
  readonly dryRun: boolean;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface RestoreSummary {
  readonly bot: string;
  readonly collection: string;
  readonly dryRun: boolean;
  readonly points: number;
  /** Journal rows new to this journal (in a dry run: rows in the file). */
  readonly rowsInserted: number;
  /** True when this snapshot was already restored here: nothing was written. */
  readonly alreadyRestored: boolean;
  readonly warnings: readonly string[];
}

const BATCH = 128;

export async function restoreSnapshot(deps: RestoreDeps, request: RestoreRequest): Promise<RestoreSummary> {
  const now = deps.now ?? Date.now;
  const { store, journal } = deps;
  const { header, points, rows, originOf } = await checkFile(request);
  const snapshotId = createHash('sha256').update(formatSnapshotLine(header)).digest('hex');
  const previous = await journal.snapshots.restoreOf(request.collection);
  const base = { bot: request.bot, collection: request.collection, dryRun: request.dryRun, points };
  if (previous?.snapshot === snapshotId && previous.complete) {
    return { ...base, rowsInserted: 0, alreadyRestored: true, warnings: [] };
  }
  await checkTarget(deps, request, header, previous?.snapshot === snapshotId);
  const from = { bot: header.bot, collection: header.collection };
  const to = { bot: request.bot, collection: request.collection };
  await checkRowsFit(journal, request.file, rows, from, to, originOf);
  const warnings =
    header.model !== null && header.model.model !== request.configuredModel
      ? [
          `the snapshot's vectors were made by ${header.model.model}, but the config embeds with ${request.configuredModel}: ` +
            `set embedding back to ${header.model.model} to use this collection, or move it with \`memory-pool reembed --bot ${request.bot} --to <file>\`.`,
        ]
      : [];
  if (request.dryRun) {
    const rowCount = Object.values(rows).reduce((sum, list) => sum + list.length, 0);
    return { ...base, rowsInserted: rowCount, alreadyRestored: false, warnings };
  }
  await journal.snapshots.recordRestore(request.collection, snapshotId, false, now());
  if ((await store.readCollection(request.collection)) === undefined) {
    // A collection deleted (then restored) must not find its deleted text again in the parts it left.
    await dropLeftParts(store, journal, request.collection);
    await store.createCollectionWithLayout(request.collection, header.layout);
    // The viewer's timeline orders the restored memories newest first and a linked person's DM recall filters them
    // by dmWith, as for a collection serve created. The timeline's failure stops the restore (run it again); the
    // dmWith index is best effort: a failure costs recall the index, and serve asks again at its start.
    if (deps.indexes !== undefined)
      await prepareServiceIndexes(
        deps.indexes,
        request.collection,
        undefined,
        CHUNKS_INDEXES,
        (family, _, error) => {
          if (family === 'timeline') throw error;
        },
      );
  }
  let written = 0;
  let batch: FullStorePoint[] = [];
  const flush = async () => {
    await store.upsertFullPoints(request.collection, batch);
    written += batch.length;
    batch = [];
    request.onProgress?.(written, points);
  };
  for await (const line of readSnapshotLines(request.file, request.source)) {
    if (line.type !== 'point') continue;
    batch.push({ id: line.id, vector: line.vector, payload: dropPersonDmWith(line.payload) });
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  const rowsInserted = await journal.transaction(async (tx) => {
    let inserted = 0;
    for (const [table, list] of Object.entries(rows)) {
      inserted += await tx.snapshots.insertRows(table as SnapshotTable, list, from, to);
    }
    // The restored points say who each DM was with on the snapshot's day: until their chunks are rewritten under
    // today's links, recall reads the journal's channels instead of `dmWith` (docs/people.md).
    await tx.renames.requestRenames(request.bot, listRestoredUserAccounts(rows), now());
    await tx.snapshots.recordRestore(request.collection, snapshotId, true, now());
    return inserted;
  });
  return { ...base, rowsInserted, alreadyRestored: false, warnings };
}

/** Reads the whole file once before anything is written: a bad line refuses the restore, not half of it. */
async function checkFile(request: RestoreRequest) {
  try {
    return await readWholeFile(request);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationError(error.field ?? request.file, `${error.message} Nothing was written.`);
  }
}

async function readWholeFile(request: RestoreRequest) {
  let header: SnapshotHeader | undefined;
  let points = 0;
  const rows: Partial<Record<SnapshotTable, JournalRow[]>> = {};
  const rowLines: Partial<Record<SnapshotTable, number[]>> = {};
  for await (const { line, lineNumber } of readNumberedSnapshotLines(request.file, request.source)) {
    if (line.type === 'header') header = line;
    else if (line.type === 'point') points += 1;
    else if (line.type === 'row') {
      const list = rows[line.table] ?? [];
      const numbers = rowLines[line.table] ?? [];
      list.push(line.row);
      numbers.push(lineNumber);
      rows[line.table] = list;
      rowLines[line.table] = numbers;
    } else if (line.points !== points) {
      throw new StoreError(
        'store_failed',
        `${request.file}: the end line counts ${countNoun(line.points, 'point')} but the file holds ${points}. Export the bot again.`,
        { retryable: false },
      );
    }
  }
  // A row the journal refuses is named by its line, as the read names a line it refuses.
  const originOf: RowOrigin = (table, index) => `${request.file} line ${rowLines[table]?.[index]}`;
  return { header: header as SnapshotHeader, points, rows, originOf };
}

/** The journal rows must fit this journal before any point is written (the check itself writes nothing). */
async function checkRowsFit(
  journal: Journal,
  file: string,
  rows: Partial<Record<SnapshotTable, JournalRow[]>>,
  from: SnapshotNames,
  to: SnapshotNames,
  originOf: RowOrigin,
): Promise<void> {
  try {
    await journal.snapshots.checkRows(rows, from, to, originOf);
  } catch (error) {
    if (error instanceof ValidationError) {
      throw new ValidationError(
        error.field ?? file,
        `${error.message}; nothing was written. Export the bot again, or restore an unmodified snapshot.`,
      );
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new ValidationError(
      file,
      `${file}: its journal rows cannot be restored into this journal (${reason}); nothing was written. Export the bot again, or restore an unmodified snapshot.`,
    );
  }
}

/** The target must be empty (or this very restore, resumed) and, when it exists, hold the header's vectors. */
async function checkTarget(
  deps: RestoreDeps,
  request: RestoreRequest,
  header: SnapshotHeader,
  resuming: boolean,
) {
  const target = request.collection;
  const refuse = (message: string) =>
    new StoreError('collection_incompatible', message, { retryable: false });
  const fix = `Restore into a new collection with --into-collection <name> (then set bots.${request.bot}.collection to it).`;
  const recorded = await deps.journal.collectionModel(target);
  if (recorded && header.model && recorded.model !== header.model.model) {
    throw refuse(
      `collection ${target} holds vectors of the embedding model ${recorded.model}, the snapshot's are ${header.model.model}: they cannot be compared. ${fix}`,
    );
  }
  const existing = await deps.store.readCollection(target);
  if (existing === undefined) return;
  if (formatCanonicalJson(existing.layout.vectors) !== formatCanonicalJson(header.layout.vectors)) {
    throw refuse(
      `collection ${target} has the vector layout ${JSON.stringify(existing.layout.vectors)}, the snapshot's is ${JSON.stringify(header.layout.vectors)} (another model's vectors). ${fix}`,
    );
  }
  if (existing.pointsCount > 0 && !resuming) {
    throw refuse(
      `collection ${target} already holds ${countNoun(existing.pointsCount, 'point')}; restore writes only into an empty collection. ${fix}`,
    );
  }
}
