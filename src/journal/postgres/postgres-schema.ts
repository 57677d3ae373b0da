/**
 * @module The journal's Postgres schema: the SQLite tables (journal-schema.ts explains each) with the same
 * columns and meanings, so snapshot rows read the same on both, plus leases and chunk claims. Created or
 * migrated at open under an advisory lock, so replicas starting together do it once.
 */
import { ConfigError } from '../../errors/memory-pool-error.js';
import { PERSONA_INDEX } from './postgres-persona-index.js';
import type { PgSession } from './postgres-session.js';

/** The version this build writes (journal_schema.version). 1: the journal, leases and chunk claims; 2: the Discord
 * interface's state (journal-discord.ts); 3: people, their accounts and link codes (journal-people.ts); 4: the rename
 * pass's rows (journal-renames.ts) and the index that finds a persona's messages. */
export const SCHEMA_VERSION = 4;
/** How long a migration waits for a table lock before it gives up (the replica's start fails, retried). */
const MIGRATION_LOCK_TIMEOUT_MS = 10_000;
/** Any fixed key; only memory-pool's migration takes it. */
const MIGRATION_LOCK = 7_242_024;

const STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS messages (
     bot TEXT NOT NULL, message_id TEXT NOT NULL, source TEXT NOT NULL, conversation TEXT NOT NULL,
     speaker_kind TEXT NOT NULL, text TEXT NOT NULL, ts BIGINT NOT NULL, user_id TEXT, speaker_name TEXT,
     channel_id TEXT, guild_id TEXT, is_dm INTEGER NOT NULL DEFAULT 0, arrived_at BIGINT NOT NULL, chunk_id TEXT,
     PRIMARY KEY (bot, source, message_id)
   )`,
  'CREATE INDEX IF NOT EXISTS messages_pending ON messages (bot, conversation, ts) WHERE chunk_id IS NULL',
  'CREATE INDEX IF NOT EXISTS messages_by_chunk ON messages (chunk_id) WHERE chunk_id IS NOT NULL',
  'CREATE INDEX IF NOT EXISTS messages_by_id ON messages (bot, message_id, chunk_id)',
  'CREATE INDEX IF NOT EXISTS messages_by_user ON messages (bot, user_id) WHERE user_id IS NOT NULL',
  `CREATE TABLE IF NOT EXISTS chunks (
     chunk_id TEXT PRIMARY KEY, bot TEXT NOT NULL, collection TEXT NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('planned', 'stored')), revision INTEGER NOT NULL DEFAULT 0,
     needs_delete INTEGER NOT NULL DEFAULT 0, attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at BIGINT NOT NULL DEFAULT 0, last_error TEXT, planned_at BIGINT NOT NULL, stored_at BIGINT
   )`,
  "CREATE INDEX IF NOT EXISTS chunks_due ON chunks (next_attempt_at) WHERE state = 'planned' OR needs_delete = 1",
  `CREATE TABLE IF NOT EXISTS forgotten_messages (
     bot TEXT NOT NULL, message_id TEXT NOT NULL, forgotten_at BIGINT NOT NULL, sources TEXT,
     PRIMARY KEY (bot, message_id)
   )`,
  `CREATE TABLE IF NOT EXISTS forget_audit (
     id BIGSERIAL PRIMARY KEY, at BIGINT NOT NULL, actor TEXT NOT NULL, bot TEXT NOT NULL,
     selector TEXT NOT NULL, result TEXT NOT NULL
   )`,
  'CREATE TABLE IF NOT EXISTS journal_probe (id BIGSERIAL PRIMARY KEY, filler BYTEA NOT NULL)',
  `CREATE TABLE IF NOT EXISTS collection_models (
     collection TEXT PRIMARY KEY, model TEXT NOT NULL, dimensions INTEGER NOT NULL, recorded_at BIGINT NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS parts_indexes (
     collection TEXT PRIMARY KEY, complete INTEGER NOT NULL, updated_at BIGINT NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS collection_routes (
     collection TEXT PRIMARY KEY, target TEXT NOT NULL, previous TEXT, switched_at BIGINT NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS reembeds (
     collection TEXT PRIMARY KEY, source TEXT NOT NULL, target TEXT NOT NULL, started_at BIGINT NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS collection_embeddings (
     collection TEXT PRIMARY KEY, embedding TEXT NOT NULL, recorded_at BIGINT NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS restores (
     collection TEXT PRIMARY KEY, snapshot TEXT NOT NULL, complete INTEGER NOT NULL, updated_at BIGINT NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS journal_leases (
     name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at BIGINT NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS chunk_claims (
     chunk_id TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at BIGINT NOT NULL
   )`,
  // Step 2 (a journal at 1 runs every statement again: those above are no-ops there).
  `CREATE TABLE IF NOT EXISTS discord_opt_outs (
     bot TEXT NOT NULL, user_id TEXT NOT NULL, at BIGINT NOT NULL, PRIMARY KEY (bot, user_id)
   )`,
  `CREATE TABLE IF NOT EXISTS discord_channel_rules (
     bot TEXT NOT NULL, channel_id TEXT NOT NULL, rule TEXT NOT NULL CHECK (rule IN ('allow', 'deny')),
     PRIMARY KEY (bot, channel_id)
   )`,
  `CREATE TABLE IF NOT EXISTS discord_backfilled (
     bot TEXT NOT NULL, channel_id TEXT NOT NULL, at BIGINT NOT NULL, PRIMARY KEY (bot, channel_id)
   )`,
  `CREATE TABLE IF NOT EXISTS discord_forgotten_before (
     bot TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('user', 'channel')), id TEXT NOT NULL,
     at BIGINT NOT NULL, PRIMARY KEY (bot, kind, id)
   )`,
  `CREATE TABLE IF NOT EXISTS discord_threads (
     bot TEXT NOT NULL, thread_id TEXT NOT NULL, parent_id TEXT NOT NULL, public INTEGER,
     PRIMARY KEY (bot, thread_id)
   )`,
  `CREATE TABLE IF NOT EXISTS discord_gateway (bot TEXT PRIMARY KEY, connected_at BIGINT NOT NULL)`,
  // Step 3.
  `CREATE TABLE IF NOT EXISTS people (
     bot TEXT NOT NULL, person_id TEXT NOT NULL, name TEXT NOT NULL, created_at BIGINT NOT NULL,
     updated_at BIGINT NOT NULL, PRIMARY KEY (bot, person_id)
   )`,
  `CREATE TABLE IF NOT EXISTS person_accounts (
     bot TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('user', 'persona')), value TEXT NOT NULL,
     person_id TEXT NOT NULL, linked_at BIGINT NOT NULL, PRIMARY KEY (bot, kind, value)
   )`,
  'CREATE INDEX IF NOT EXISTS person_accounts_by_person ON person_accounts (bot, person_id)',
  `CREATE TABLE IF NOT EXISTS link_codes (
     code_hash TEXT PRIMARY KEY, bot TEXT NOT NULL, kind TEXT NOT NULL, value TEXT NOT NULL,
     expires_at BIGINT NOT NULL, used_at BIGINT
   )`,
  `CREATE TABLE IF NOT EXISTS link_failures (
     bot TEXT NOT NULL, kind TEXT NOT NULL, value TEXT NOT NULL, at BIGINT NOT NULL
   )`,
  'CREATE INDEX IF NOT EXISTS link_failures_by_account ON link_failures (bot, kind, value, at)',
  // Step 4.
  `CREATE TABLE IF NOT EXISTS rename_requests (
     bot TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('user', 'persona')), value TEXT NOT NULL,
     version INTEGER NOT NULL, requested_at BIGINT NOT NULL, PRIMARY KEY (bot, kind, value)
   )`,
  `CREATE TABLE IF NOT EXISTS rename_chunks (
     chunk_id TEXT PRIMARY KEY, bot TEXT NOT NULL, queued_at BIGINT NOT NULL
   )`,
  'CREATE INDEX IF NOT EXISTS rename_chunks_by_bot ON rename_chunks (bot)',
  // messages_by_persona: at once on a new journal, concurrently after the migration otherwise (below).
];

/**
 * Creates the tables if needed and refuses a journal written by a newer memory-pool. A journal already at
 * this version is only read: even an IF NOT EXISTS index takes a lock that would stall every other
 * replica's writes while one starts. DDL runs under a transaction-scoped advisory lock (a replica killed
 * mid-migration releases it with its connection) and a lock_timeout, so a migration behind a long write
 * fails (retried at the next start) rather than queueing every save behind it. The one index that reads the
 * whole messages table is built apart, concurrently (postgres-persona-index.ts, which the journal's open runs).
 */
export async function applyPostgresSchema(session: PgSession): Promise<void> {
  if ((await schemaVersion(session)) === SCHEMA_VERSION) return;
  await session.transaction(async (tx) => {
    await tx.run('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.run(`SET LOCAL lock_timeout = '${MIGRATION_LOCK_TIMEOUT_MS}ms'`);
    await tx.run('CREATE TABLE IF NOT EXISTS journal_schema (version INTEGER NOT NULL)');
    const current = await schemaVersion(tx);
    if (current === SCHEMA_VERSION) return; // another replica migrated while this one waited for the lock
    for (const sql of STATEMENTS) await tx.run(sql);
    // The table is empty: no write waits for this index. A journal with messages builds it concurrently.
    if (current === undefined) await tx.run(`CREATE INDEX IF NOT EXISTS ${PERSONA_INDEX}`);
    if (current === undefined)
      await tx.run('INSERT INTO journal_schema (version) VALUES ($1)', [SCHEMA_VERSION]);
    else await tx.run('UPDATE journal_schema SET version = $1', [SCHEMA_VERSION]);
  });
}

/** The journal's schema version, undefined when it has none yet; a newer one than this build is refused. */
async function schemaVersion(db: PgSession): Promise<number | undefined> {
  const table = await db.row<{ found: string | null }>("SELECT to_regclass('journal_schema') AS found");
  if (table?.found == null) return undefined;
  const current = await db.row<{ version: number }>('SELECT version FROM journal_schema');
  if (current !== undefined && current.version > SCHEMA_VERSION) {
    throw new ConfigError(
      'journal.postgres.url',
      `names a journal written by a newer memory-pool (schema ${current.version}, this build knows ${SCHEMA_VERSION}); upgrade memory-pool, or point journal.postgres.url at another database`,
    );
  }
  return current?.version;
}

/** The journal's schema version (undefined: none yet), read without writing; a newer one is refused. */
export const readPostgresSchemaVersion: (db: PgSession) => Promise<number | undefined> = schemaVersion;
