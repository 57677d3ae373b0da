/**
 * @module The start-up check of `journal.postgres.url`: can this machine reach that server and database?
 * A wrong URL is one clear ConfigError naming the key (the process exits once, with the fix), never a
 * crash loop of driver stack traces; the password never appears in it.
 */
import pg from 'pg';
import { ConfigError, JournalError } from '../../errors/memory-pool-error.js';
import { redactPostgresUrl, withoutPassword } from './postgres-errors.js';

const KEY = 'journal.postgres.url';

/** Connects once and asks the server's version and the journal's schema version (undefined: none yet); throws ConfigError naming the key when it cannot. */
export async function checkPostgresJournal(
  url: string,
  timeoutMs = 5000,
): Promise<{ readonly serverVersion: string; readonly schemaVersion: number | undefined }> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => undefined); // reported by connect() or query() below
  try {
    await client.connect();
    const result = await client.query<{ server_version: string }>('SHOW server_version');
    // Read only: the doctor reports a journal no replica has created yet (or a newer one) without touching it.
    const table = await client.query<{ found: string | null }>(
      "SELECT to_regclass('journal_schema') AS found",
    );
    const schema =
      table.rows[0]?.found == null
        ? undefined
        : (await client.query<{ version: number }>('SELECT version FROM journal_schema')).rows[0]?.version;
    return { serverVersion: result.rows[0]?.server_version ?? 'unknown', schemaVersion: schema };
  } catch (error) {
    throw toConnectError(error, url);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The ConfigError for a failure to connect to (or open the journal in) the server `url` names. */
export function toConnectError(error: unknown, url: string): ConfigError {
  if (error instanceof ConfigError) return error;
  // The journal's own wording of an unreachable server is for a running service; at start-up, the driver's.
  if (error instanceof JournalError && error.cause !== undefined) return toConnectError(error.cause, url);
  const detail = withoutPassword(error instanceof Error ? error.message : String(error), url);
  const code = (error as { code?: unknown }).code;
  return new ConfigError(
    KEY,
    `cannot open the Postgres journal at ${redactPostgresUrl(url)}: ${detail}${typeof code === 'string' ? ` (${code})` : ''}. ${fixFor(code)}`,
  );
}

function fixFor(code: unknown): string {
  switch (code) {
    case '28P01':
    case '28000':
      return 'Check the user and password (set the password in the URL or in PGPASSWORD).';
    case '3D000':
      return 'Create the database (createdb), or name an existing one in the URL.';
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
      return 'Check the host and port, and that the server accepts connections from this machine.';
    default:
      return 'Check the URL, and that the server is running and accepts this user.';
  }
}
