/**
 * @module What a Postgres failure means to the journal's callers: an unreachable or full server is a
 * retryable 503 (`journal_unavailable`), as a full disk is for SQLite; the URL's password never appears.
 */
import { JournalError } from '../../errors/memory-pool-error.js';

/** SQLSTATE classes and socket codes that mean "the server cannot take writes now", not a bug. */
const UNAVAILABLE: readonly (readonly [RegExp, string])[] = [
  [/^08/, 'the connection to Postgres failed'],
  // A rotated password or a dropped role: new connections fail until journal.postgres.url is fixed.
  [/^28/, 'Postgres refused the login (was the password or the role changed?)'],
  [/^53/, 'Postgres is out of resources (disk, memory or connections)'],
  [/^57P0[123]/, 'Postgres is shutting down or restarting'],
  [/^40(P01|001)$/, 'Postgres aborted the transaction to break a lock conflict with another replica'],
  [/^(55P03|57014)$/, 'Postgres gave up waiting for a lock or a statement (lock_timeout, statement_timeout)'],
  [/^25P03$/, 'Postgres ended a transaction left idle too long (idle_in_transaction_session_timeout)'],
  [/^25006$/, 'Postgres is read-only (a standby?)'],
  [/^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH|EPIPE)$/, 'Postgres cannot be reached'],
];

/** Query parameters of a Postgres URL that carry a secret (libpq's password and sslpassword). */
const SECRET_PARAMS = /^(password|sslpassword)$/i;

/** `url` with its password (in the userinfo or a query parameter) replaced by `***`, for logs and messages. */
export function redactPostgresUrl(url: string): string {
  if (!URL.canParse(url)) return '(an unreadable URL)';
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  for (const key of [...parsed.searchParams.keys()]) {
    if (SECRET_PARAMS.test(key)) parsed.searchParams.set(key, '***');
  }
  parsed.hash = ''; // a raw # in a password would leave its tail here
  return parsed.toString();
}

/** `text` with every secret of the URL removed (a driver message may quote its settings). */
export function withoutPassword(text: string, url: string): string {
  if (!URL.canParse(url)) return text;
  const parsed = new URL(url);
  const secrets = [
    parsed.password,
    ...[...parsed.searchParams].flatMap(([key, value]) => (SECRET_PARAMS.test(key) ? [value] : [])),
  ];
  // Both the written and the decoded form; a malformed escape (%zz) has only the written one.
  const forms = secrets.flatMap((secret) => [secret, safeDecode(secret)]).filter((form) => form !== '');
  return [...new Set(forms)]
    .sort((x, y) => y.length - x.length)
    .reduce((out, form) => out.split(form).join('***'), text);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The JournalError for a failure that means Postgres cannot take writes now, else undefined. */
export function toPostgresJournalError(error: unknown, url: string): JournalError | undefined {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const reason =
    typeof code === 'string'
      ? UNAVAILABLE.find(([pattern]) => pattern.test(code))?.[1]
      : /timeout exceeded when trying to connect/i.test(message)
        ? // pg-pool's own wait for a free client: the server may be fine, this replica's connections all busy
          "no connection of this replica's pool came free in time (all busy: raise maxConnections, or the server is slow to accept)"
        : /Connection terminated|encountered a connection error and is not queryable/i.test(message)
          ? 'the connection to Postgres failed'
          : undefined;
  if (reason === undefined) return undefined;
  // The driver's words name the user, host or database, and the URL all of them: every key reads the message
  // of a 503 on /save and /retrieve, so they go to the log (and an admin's /ready) as the detail.
  return new JournalError(
    `the journal cannot be written: ${reason}; check the server named by journal.postgres.url, then retry (no restart needed)`,
    error,
    `${withoutPassword(message, url)} at ${redactPostgresUrl(url)}`,
  );
}
