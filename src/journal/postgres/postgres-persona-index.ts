/**
 * @module The `messages_by_persona` index (schema 4: the rename pass finds a SillyTavern persona's messages by it)
 * on a journal that already holds messages: built with CREATE INDEX CONCURRENTLY, outside the migration's
 * transaction, because a plain CREATE INDEX holds a lock that stops every replica's saves while it reads the
 * whole table (seconds at a million messages, longer on a loaded server). A new journal's empty table gets it in
 * the migration itself (postgres-schema.ts).
 */
import type pg from 'pg';

/** The index as both the migration and the concurrent build create it. */
export const PERSONA_INDEX = `messages_by_persona ON messages (bot, speaker_name)
  WHERE user_id IS NULL AND speaker_kind = 'user'`;
/** Any fixed key but the migration's and the copy lock's; only this build step takes it, so two replicas starting together build the index once. */
const PERSONA_INDEX_LOCK = 7_242_026;

/**
 * Builds the index when it is missing or invalid (a concurrent build killed half-way leaves it invalid: it is
 * dropped and built again); a journal that has it valid costs one catalog read. A replica that finds another
 * building it does not wait: waiting in `pg_advisory_lock` holds a snapshot, which the other's CREATE INDEX
 * CONCURRENTLY waits for in turn (a deadlock, and a replica that failed to start). It serves without the index,
 * which only speeds up the rename pass; the builder finishes it, and a build that dies is redone at the next open.
 */
export async function ensurePersonaIndex(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  let settingsChanged = false;
  try {
    if (await isPersonaIndexValid(client)) return;
    // A build reads every message, and waits for the transactions already running: no time limit on either.
    settingsChanged = true;
    await client.query('SET statement_timeout = 0');
    await client.query('SET lock_timeout = 0');
    const taken = await client.query<{ taken: boolean }>('SELECT pg_try_advisory_lock($1) AS taken', [
      PERSONA_INDEX_LOCK,
    ]);
    if (taken.rows[0]?.taken !== true) return; // another replica is building it
    try {
      if (await isPersonaIndexValid(client)) return; // another replica built it since the first read
      await client.query('DROP INDEX CONCURRENTLY IF EXISTS messages_by_persona');
      await client.query(`CREATE INDEX CONCURRENTLY ${PERSONA_INDEX}`);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [PERSONA_INDEX_LOCK]);
    }
  } finally {
    // A connection whose session settings changed is not handed to the journal's next caller.
    client.release(settingsChanged);
  }
}

/** Whether the index exists and can be used (a killed concurrent build leaves it present but invalid). */
async function isPersonaIndexValid(client: pg.PoolClient): Promise<boolean> {
  const result = await client.query<{ valid: boolean }>(
    `SELECT i.indisvalid AS valid FROM pg_index i WHERE i.indexrelid = to_regclass('messages_by_persona')`,
  );
  return result.rows[0]?.valid === true;
}
