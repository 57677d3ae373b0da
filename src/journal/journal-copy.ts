/**
 * @module What `memory-pool journal copy` moves from a SQLite journal into a Postgres one: every table the
 * journal holds, each with the key that orders it (batches resume after the last key copied), and the two
 * ends of the copy as ports (sqlite/sqlite-copy-source.ts, postgres/postgres-copy-target.ts).
 */
import type { JournalRow } from './journal-snapshot.js';

/** A table copied row for row, with its primary key (its columns in order). */
export interface CopiedTable {
  readonly name: string;
  readonly key: readonly string[];
  /** Key columns that hold integers (the rest are text): the target's key arrays are typed by it. */
  readonly integerKey?: true;
}

/**
 * Every table of journal-schema.ts, in an order where nothing refers to a row not yet copied. Left out:
 * journal_probe (a scratch row, empty between probes), and journal_leases and chunk_claims (claims of the
 * processes running now, which expire: a copy runs with the service stopped, and a claim on the new journal
 * starts free).
 */
export const COPIED_TABLES: readonly CopiedTable[] = [
  { name: 'messages', key: ['bot', 'source', 'message_id'] },
  { name: 'chunks', key: ['chunk_id'] },
  { name: 'forgotten_messages', key: ['bot', 'message_id'] },
  { name: 'forget_audit', key: ['id'], integerKey: true },
  { name: 'collection_models', key: ['collection'] },
  { name: 'parts_indexes', key: ['collection'] },
  { name: 'collection_routes', key: ['collection'] },
  { name: 'reembeds', key: ['collection'] },
  { name: 'collection_embeddings', key: ['collection'] },
  { name: 'restores', key: ['collection'] },
  // The Discord interface's state (journal-discord.ts): a replica on the copy must not record an opted-out
  // user or a denied channel again, nor back-fill from scratch.
  { name: 'discord_opt_outs', key: ['bot', 'user_id'] },
  { name: 'discord_channel_rules', key: ['bot', 'channel_id'] },
  { name: 'discord_backfilled', key: ['bot', 'channel_id'] },
  { name: 'discord_forgotten_before', key: ['bot', 'kind', 'id'] },
  { name: 'discord_threads', key: ['bot', 'thread_id'] },
  { name: 'discord_gateway', key: ['bot'] },
  // People (journal-people.ts): names and links. Link codes and failed redeems are left out, as claims are:
  // they last minutes, and a person asks for a new code.
  { name: 'people', key: ['bot', 'person_id'] },
  { name: 'person_accounts', key: ['bot', 'kind', 'value'] },
  // Renames a link change left (journal-renames.ts): the copy's first start runs the pass they wait for.
  { name: 'rename_requests', key: ['bot', 'kind', 'value'] },
  { name: 'rename_chunks', key: ['chunk_id'] },
];

/** A row's key values, in the table's key order. */
export type RowKey = readonly (string | number)[];

/** The keyOf a row of `table`. */
export function keyOf(table: CopiedTable, row: JournalRow): RowKey {
  return table.key.map((column) => row[column] as string | number);
}

/** The journal being copied: read in one snapshot, so every batch sees the same journal. */
export interface JournalCopySource {
  /** Names the source in the target's record of the copy (a later run resumes only the same source). */
  readonly identity: string;
  countRows(table: CopiedTable): number;
  /** Up to `limit` rows after `after` (from the start when undefined), in key order. */
  readRows(table: CopiedTable, after: RowKey | undefined, limit: number): JournalRow[];
  /** The keys among `keys` the source does not hold. */
  missingKeys(table: CopiedTable, keys: readonly RowKey[]): RowKey[];
  close(): void;
}

/** How far a copy got in one table, as recorded in the target beside the rows it copied. */
export interface TableProgress {
  readonly source: string;
  /** The last source key copied in the current pass; undefined before the first batch. */
  readonly after: RowKey | undefined;
  readonly done: boolean;
  /** How many rows the target holds in this table after what the copy did (anything else wrote the rest). */
  readonly targetRows: number;
}

/** What one batch changed in the target. */
export interface BatchResult {
  readonly inserted: number;
  readonly updated: number;
}

/** The Postgres journal being filled. Each write and its progress record are one transaction. */
export interface JournalCopyTarget {
  /** Rows per table now (0 for a table not created yet). */
  countRows(table: CopiedTable): Promise<number>;
  /** The recorded progress of each table a copy has started. */
  readProgress(): Promise<Map<string, TableProgress>>;
  /** Starts a new pass: every table from the start, its target count as it is now. */
  startPass(source: string, counts: ReadonlyMap<string, number>): Promise<void>;
  /** Inserts new rows and updates changed ones; records `after` as the table's progress. */
  writeRows(table: CopiedTable, rows: readonly JournalRow[], after: RowKey): Promise<BatchResult>;
  /** Up to `limit` target keys after `after`, in the target's own key order. */
  readKeys(table: CopiedTable, after: RowKey | undefined, limit: number): Promise<RowKey[]>;
  /** Deletes rows the source no longer holds. */
  deleteRows(table: CopiedTable, keys: readonly RowKey[]): Promise<number>;
  markDone(table: CopiedTable): Promise<void>;
  close(): Promise<void>;
}
