/** @module The journal's SQLite schema, created or migrated on open. */
import type { Database } from 'better-sqlite3';
import { ConfigError } from '../errors/memory-pool-error.js';

/** The version this build writes (PRAGMA user_version). 2: the Discord interface's state (it lived in its own
 * `discord.sqlite` before). 3: people, their linked accounts and link codes (journal-people.ts). 4: the rename
 * pass's rows (journal-renames.ts) and the index that finds a persona's messages. */
export const SCHEMA_VERSION = 4;

/**
 * messages: every accepted message, keyed by (bot, source, message_id) so re-sent windows are no-ops (ids are
 * unique per interface only: two interfaces may both send `self-12-1`).
 * chunks: a chunk is planned (its messages fixed) before it is embedded, so a crash between the two
 * resumes with the same point id instead of re-cutting the conversation. `revision` counts edits and
 * forgets, so a write that raced with one is not taken as current; `needs_delete` asks the writer to
 * remove the stored point first (forget), before it writes the chunk again or drops it.
 * forgotten_messages: tombstones, so a re-sent window or an import never brings a forgotten message back.
 * forget_audit: who forgot what, with the counts (readable by admin keys).
 * journal_probe: scratch rows written and deleted by /ready to learn whether a journal that could not be
 * written (disk full) can be again; always empty between probes.
 * parts_indexes: the collections whose parts index memory-pool started, and whether it is complete.
 * collection_routes: a bot's collection switched by `memory-pool reembed` to the collection built with the
 * new model; the service reads and writes the target instead (the configured name stays the chunk ids' key).
 * restores: the snapshot a collection is being (or was) restored from, so a restore can resume.
 * reembeds: a reembed building `target` from `source` (the collection in use): while the row exists, serve
 * writes every chunk it stores in `source` to `target` too; the switch deletes it in its transaction.
 * collection_embeddings: the `embedding:` section a reembed built a collection with, as written (`${VAR}`
 * references unexpanded, so no secret is stored), so serve can embed for that collection without a restart.
 * discord_*: each bot's Discord state (journal-discord.ts), shared by the replicas that take turns holding its
 * gateway: opt-outs, channel rules, channels back-filled, forgets that bar re-recording, threads recorded
 * from (their parent and whether public, NULL unknown), and until when the gateway was last connected.
 * people, person_accounts: per bot, a person's one name and the accounts linked to it (the primary key keeps an
 * account to one person). link_codes: self-service link codes, by the SHA-256 of the code (never the code),
 * used once; link_failures: failed redeems per account, kept an hour, to rate-limit guessing.
 * rename_requests: accounts whose stored chunks must be rewritten under the names links give now, written in the
 * transaction of the link change itself (so a crash loses none); `version` counts the changes, so the pass deletes
 * only the request it read. rename_chunks: the chunks a pass queued for that rewrite, until they are written
 * (what `stats` and `/ready` count as left).
 */
/** Schema step 3. */
export const PEOPLE_STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS people (
     bot TEXT NOT NULL, person_id TEXT NOT NULL, name TEXT NOT NULL, created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL, PRIMARY KEY (bot, person_id)
   )`,
  `CREATE TABLE IF NOT EXISTS person_accounts (
     bot TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('user', 'persona')), value TEXT NOT NULL,
     person_id TEXT NOT NULL, linked_at INTEGER NOT NULL, PRIMARY KEY (bot, kind, value)
   )`,
  'CREATE INDEX IF NOT EXISTS person_accounts_by_person ON person_accounts (bot, person_id)',
  `CREATE TABLE IF NOT EXISTS link_codes (
     code_hash TEXT PRIMARY KEY, bot TEXT NOT NULL, kind TEXT NOT NULL, value TEXT NOT NULL,
     expires_at INTEGER NOT NULL, used_at INTEGER
   )`,
  `CREATE TABLE IF NOT EXISTS link_failures (
     bot TEXT NOT NULL, kind TEXT NOT NULL, value TEXT NOT NULL, at INTEGER NOT NULL
   )`,
  'CREATE INDEX IF NOT EXISTS link_failures_by_account ON link_failures (bot, kind, value, at)',
];

/** Schema step 4 (journal-renames.ts). */
export const RENAME_STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS rename_requests (
     bot TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('user', 'persona')), value TEXT NOT NULL,
     version INTEGER NOT NULL, requested_at INTEGER NOT NULL, PRIMARY KEY (bot, kind, value)
   )`,
  `CREATE TABLE IF NOT EXISTS rename_chunks (
     chunk_id TEXT PRIMARY KEY, bot TEXT NOT NULL, queued_at INTEGER NOT NULL
   )`,
  'CREATE INDEX IF NOT EXISTS rename_chunks_by_bot ON rename_chunks (bot)',
  // A persona's messages (SillyTavern history: a name, no user id) without reading every message of the bot.
  `CREATE INDEX IF NOT EXISTS messages_by_persona ON messages (bot, speaker_name)
     WHERE user_id IS NULL AND speaker_kind = 'user'`,
];

/** Schema step 2. */
const DISCORD_STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS discord_opt_outs (
     bot TEXT NOT NULL, user_id TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (bot, user_id)
   ) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS discord_channel_rules (
     bot TEXT NOT NULL, channel_id TEXT NOT NULL, rule TEXT NOT NULL CHECK (rule IN ('allow', 'deny')),
     PRIMARY KEY (bot, channel_id)
   ) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS discord_backfilled (
     bot TEXT NOT NULL, channel_id TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (bot, channel_id)
   ) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS discord_forgotten_before (
     bot TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('user', 'channel')), id TEXT NOT NULL,
     at INTEGER NOT NULL, PRIMARY KEY (bot, kind, id)
   ) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS discord_threads (
     bot TEXT NOT NULL, thread_id TEXT NOT NULL, parent_id TEXT NOT NULL, public INTEGER,
     PRIMARY KEY (bot, thread_id)
   ) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS discord_gateway (
     bot TEXT PRIMARY KEY, connected_at INTEGER NOT NULL
   ) WITHOUT ROWID`,
];

const STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS messages (
     bot TEXT NOT NULL,
     message_id TEXT NOT NULL,
     source TEXT NOT NULL,
     conversation TEXT NOT NULL,
     speaker_kind TEXT NOT NULL,
     text TEXT NOT NULL,
     ts INTEGER NOT NULL,
     user_id TEXT,
     speaker_name TEXT,
     channel_id TEXT,
     guild_id TEXT,
     is_dm INTEGER NOT NULL DEFAULT 0,
     arrived_at INTEGER NOT NULL,
     chunk_id TEXT,
     PRIMARY KEY (bot, source, message_id)
   ) WITHOUT ROWID`,
  'CREATE INDEX IF NOT EXISTS messages_pending ON messages (bot, conversation, ts) WHERE chunk_id IS NULL',
  'CREATE INDEX IF NOT EXISTS messages_by_chunk ON messages (chunk_id) WHERE chunk_id IS NOT NULL',
  // Forgetting finds a message by id in any source: without this, each id scans all of the bot's messages.
  // chunk_id makes it covering, without which SQLite's planner prefers the primary key's bot prefix (a scan).
  'CREATE INDEX IF NOT EXISTS messages_by_id ON messages (bot, message_id, chunk_id)',
  `CREATE TABLE IF NOT EXISTS chunks (
     chunk_id TEXT PRIMARY KEY,
     bot TEXT NOT NULL,
     collection TEXT NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('planned', 'stored')),
     revision INTEGER NOT NULL DEFAULT 0,
     needs_delete INTEGER NOT NULL DEFAULT 0,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL DEFAULT 0,
     last_error TEXT,
     planned_at INTEGER NOT NULL,
     stored_at INTEGER
   )`,
  "CREATE INDEX IF NOT EXISTS chunks_due ON chunks (next_attempt_at) WHERE state = 'planned' OR needs_delete = 1",
  'CREATE INDEX IF NOT EXISTS messages_by_user ON messages (bot, user_id) WHERE user_id IS NOT NULL',
  `CREATE TABLE IF NOT EXISTS forgotten_messages (
     bot TEXT NOT NULL,
     message_id TEXT NOT NULL,
     forgotten_at INTEGER NOT NULL,
     -- JSON list of the sources the tombstone holds for (a source-scoped key), NULL for all.
     sources TEXT,
     PRIMARY KEY (bot, message_id)
   ) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS forget_audit (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     at INTEGER NOT NULL,
     actor TEXT NOT NULL,
     bot TEXT NOT NULL,
     selector TEXT NOT NULL,
     result TEXT NOT NULL
   )`,
  'CREATE TABLE IF NOT EXISTS journal_probe (id INTEGER PRIMARY KEY, filler BLOB NOT NULL)',
  `CREATE TABLE IF NOT EXISTS collection_models (
     collection TEXT PRIMARY KEY,
     model TEXT NOT NULL,
     dimensions INTEGER NOT NULL,
     recorded_at INTEGER NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS parts_indexes (
     collection TEXT PRIMARY KEY,
     complete INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS collection_routes (
     collection TEXT PRIMARY KEY,
     target TEXT NOT NULL,
     -- the collection used before the switch (kept until --drop-old; NULL once dropped)
     previous TEXT,
     switched_at INTEGER NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS reembeds (
     collection TEXT PRIMARY KEY,
     source TEXT NOT NULL,
     target TEXT NOT NULL,
     started_at INTEGER NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS collection_embeddings (
     collection TEXT PRIMARY KEY,
     embedding TEXT NOT NULL,
     recorded_at INTEGER NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS restores (
     collection TEXT PRIMARY KEY,
     snapshot TEXT NOT NULL,
     complete INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   )`,
  ...DISCORD_STATEMENTS,
  ...PEOPLE_STATEMENTS,
  ...RENAME_STATEMENTS,
];

/** Creates the tables if needed and refuses a journal written by a newer memory-pool. */
export function applyJournalSchema(db: Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new ConfigError(
      'dataDir',
      `holds a journal written by a newer memory-pool (schema ${version}, this build knows ${SCHEMA_VERSION}); upgrade memory-pool, or point dataDir at another folder`,
    );
  }
  db.transaction(() => {
    for (const sql of STATEMENTS) db.exec(sql);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}
