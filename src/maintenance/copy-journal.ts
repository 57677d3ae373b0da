/**
 * @module `memory-pool journal copy`: moves a SQLite journal into Postgres, table by table in batches. It
 * checks first (a target holding rows this copy did not write is refused), records its progress beside
 * each batch (an interrupted copy run again keeps what it wrote, and reads every table again, so what
 * changed in the source meanwhile reaches the copy), upserts (run twice, the same rows) and, at the end of each table, deletes what the
 * source no longer holds (a message forgotten between two runs must not live on in the copy).
 */
import { ValidationError } from '../errors/memory-pool-error.js';
import {
  COPIED_TABLES,
  type CopiedTable,
  type JournalCopySource,
  type JournalCopyTarget,
  keyOf,
  type RowKey,
  type TableProgress,
} from '../journal/journal-copy.js';
import { countNoun } from '../runtime/count-noun.js';

export interface CopyJournalRequest {
  /** Names the target in messages: the flag or variable its URL came from (never the URL's password). */
  readonly targetLabel: string;
  readonly dryRun?: boolean;
  /** Default 500 rows per batch (one transaction each). */
  readonly batchSize?: number;
  readonly onProgress?: (done: number, total: number, table: string) => void;
  /** Called (and awaited) after each batch is committed (tests interrupt the copy, or write beside it, here). */
  readonly afterBatch?: (table: string) => unknown;
  /**
   * An older memory-pool's `discord.sqlite` still in the source's dataDir (its path), if any: the copy does not
   * carry it, so it refuses rather than leave every opt-out behind (review s24, finding 5).
   */
  readonly unmovedDiscordFile?: string | undefined;
}

/** One table's figures: rows in the source, and what this run changed in the target. */
export interface CopiedTableSummary {
  readonly rows: number;
  readonly inserted: number;
  readonly updated: number;
  readonly deleted: number;
}

export interface CopyJournalSummary {
  /** Whether this run continued one that was interrupted. */
  readonly resumed: boolean;
  readonly dryRun: boolean;
  readonly tables: Record<string, CopiedTableSummary>;
}

/** Copies `source` into `target`; throws ValidationError naming `targetLabel` when the target is refused. */
export async function copyJournal(
  source: JournalCopySource,
  target: JournalCopyTarget,
  request: CopyJournalRequest,
): Promise<CopyJournalSummary> {
  if (request.unmovedDiscordFile !== undefined) {
    throw new ValidationError(
      'dataDir',
      `config dataDir: ${request.unmovedDiscordFile} holds an older memory-pool's Discord state (opt-outs, forgets, channel rules), which journal copy does not carry. Start \`memory-pool serve\` once with this config (on its SQLite journal, with discord: configured) so it moves the file into the journal (renamed discord.sqlite.moved-to-journal), stop it, then copy again.`,
    );
  }
  const counts = new Map<string, number>();
  for (const table of COPIED_TABLES) counts.set(table.name, await target.countRows(table));
  const progress = await target.readProgress();
  refuseForeignData(source.identity, counts, progress, request.targetLabel);
  const unfinished = [...progress.values()].some((p) => !p.done);
  const tables: Record<string, CopiedTableSummary> = {};
  if (request.dryRun === true) {
    for (const table of COPIED_TABLES) {
      tables[table.name] = { rows: source.countRows(table), inserted: 0, updated: 0, deleted: 0 };
    }
    return { resumed: unfinished, dryRun: true, tables };
  }
  // A finished (or no) earlier run: a new pass over everything. An interrupted one: carry on with it.
  if (!unfinished) await target.startPass(source.identity, counts);
  for (const table of COPIED_TABLES) tables[table.name] = await copyTable(source, target, table, request);
  return { resumed: unfinished, dryRun: false, tables };
}

async function copyTable(
  source: JournalCopySource,
  target: JournalCopyTarget,
  table: CopiedTable,
  request: CopyJournalRequest,
): Promise<CopiedTableSummary> {
  const total = source.countRows(table);
  const summary = { rows: total, inserted: 0, updated: 0, deleted: 0 };
  const limit = request.batchSize ?? 500;
  // Every table is read from its start, in a resumed run too: the source may have changed since the run
  // that stopped (a message forgotten, a chunk marked), also in rows it had copied, and a resumed copy must
  // be as complete as a new one. Rows already copied are rewritten only where they differ, so what a
  // resumed run saves is the writes, not the reads.
  let after: RowKey | undefined;
  let done = 0;
  request.onProgress?.(done, total, table.name);
  for (;;) {
    const rows = source.readRows(table, after, limit);
    if (rows.length === 0) break;
    after = keyOf(table, rows.at(-1)!);
    const result = await target.writeRows(table, rows, after);
    summary.inserted += result.inserted;
    summary.updated += result.updated;
    done += rows.length;
    request.onProgress?.(Math.min(done, total), total, table.name);
    await request.afterBatch?.(table.name);
  }
  await refuseRowsWrittenMeanwhile(target, table, request.targetLabel);
  // What the target holds and the source does not: deleted or forgotten since an earlier run copied it.
  for (let key = undefined as ReturnType<typeof keyOf> | undefined; ; ) {
    const keys = await target.readKeys(table, key, limit);
    if (keys.length === 0) break;
    key = keys.at(-1);
    summary.deleted += await target.deleteRows(table, source.missingKeys(table, keys));
  }
  await target.markDone(table);
  request.onProgress?.(total, total, table.name);
  return summary;
}

/**
 * Before deleting anything: the table must hold what the copy's own writes left (recorded beside each
 * batch). More means something else wrote it during the copy (a replica serving it, a tool): its rows
 * would be among those deleted, so the copy stops here with nothing deleted.
 */
async function refuseRowsWrittenMeanwhile(
  target: JournalCopyTarget,
  table: CopiedTable,
  label: string,
): Promise<void> {
  const expected = (await target.readProgress()).get(table.name)?.targetRows ?? 0;
  const found = await target.countRows(table);
  if (found === expected) return;
  throw new ValidationError(
    label,
    `${label}: while copying, ${table.name} in the Postgres journal changed under the copy (${countNoun(found, 'row')}, the copy wrote ${expected}): something else writes to it (a memory-pool serve or tool on this database). Nothing was deleted. Stop what writes to it; then copy into an empty database, as this one now holds rows no copy wrote.`,
    'validation_failed',
    409,
  );
}

/**
 * The target must hold nothing, or only what a copy of this same source left in it: a table whose count
 * differs from the one the copy recorded was written by something else (a service running on it).
 */
function refuseForeignData(
  identity: string,
  counts: ReadonlyMap<string, number>,
  progress: ReadonlyMap<string, TableProgress>,
  label: string,
): void {
  const held = [...counts].filter(([, n]) => n > 0);
  const fix =
    'Copy into an empty database (createdb a new one and name it), or, if you mean to replace this one, drop its tables first.';
  const others = [...new Set([...progress.values()].map((p) => p.source))].filter((s) => s !== identity);
  if (others.length > 0) {
    throw new ValidationError(
      label,
      `${label}: the Postgres journal holds a copy of another journal (${others.join(', ')}), not of ${identity}. ${fix}`,
    );
  }
  if (progress.size === 0 && held.length === 0) return;
  const foreign = held.filter(([table, n]) => n !== (progress.get(table)?.targetRows ?? 0));
  if (foreign.length === 0) return;
  const found = foreign
    .map(
      ([table, n]) =>
        `${countNoun(n, 'row')} in ${table}${progress.has(table) ? ` (the copy left ${progress.get(table)!.targetRows})` : ''}`,
    )
    .join(', ');
  const why =
    progress.size === 0
      ? 'that no journal copy wrote (a service or another tool)'
      : 'written since the last copy (a service running on it?)';
  throw new ValidationError(
    label,
    `${label}: the Postgres journal already holds data ${why}: ${found}. ${fix}`,
  );
}
