/**
 * @module The heartbeat every process serving a Postgres journal keeps in journal_leases beside its serving
 * lock: a lock ends with its connection, and a replica whose lock connection dropped (a server restart, a
 * cut, a terminated backend) serves on until it takes the lock again, so `journal copy` reads these too and
 * refuses while any is fresh (issue 37).
 */
import type pg from 'pg';
import { SERVER_NOW_MS } from './postgres-session.js';

/** How often a serving process renews its heartbeat, and how long one lasts without renewal. */
export const HEARTBEAT_EVERY_MS = 10_000;
export const HEARTBEAT_TTL_MS = 30_000;

/** Leases named so are serving heartbeats (other leases name one job: `chunk writer`, a gateway, ...). */
const PREFIX = 'serving ';

/** Writes (or renews) `holder`'s heartbeat, valid for HEARTBEAT_TTL_MS on the server's clock. */
export async function beatServing(client: pg.Pool | pg.ClientBase, holder: string): Promise<void> {
  await client.query(
    `INSERT INTO journal_leases (name, holder, expires_at) VALUES ($1, $2, ${SERVER_NOW_MS} + $3::bigint)
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at`,
    [PREFIX + holder, holder, HEARTBEAT_TTL_MS],
  );
}

/** The query that removes `holder`'s heartbeat (a process closing its journal: a copy may start at once). */
export function endServing(holder: string): [string, string[]] {
  return ['DELETE FROM journal_leases WHERE name = $1', [PREFIX + holder]];
}

/** The processes whose heartbeat is fresh, with how long ago each beat; none in a journal not made yet. */
export async function readServingHeartbeats(client: pg.ClientBase): Promise<string[]> {
  const exists = await client.query<{ found: boolean }>(
    "SELECT to_regclass('journal_leases') IS NOT NULL AS found",
  );
  if (exists.rows[0]?.found !== true) return [];
  const result = await client.query<{ holder: string; ago: string }>(
    `SELECT holder, ($2::bigint - (expires_at - ${SERVER_NOW_MS})) AS ago FROM journal_leases
     WHERE name LIKE $1 AND expires_at > ${SERVER_NOW_MS} ORDER BY holder`,
    [`${PREFIX}%`, HEARTBEAT_TTL_MS],
  );
  return result.rows.map(
    (r) => `${r.holder} (heartbeat ${Math.max(0, Math.round(Number(r.ago) / 1000))} s ago)`,
  );
}
