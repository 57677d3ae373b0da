/**
 * @module The `journal:` section: where the journal lives when not in SQLite under dataDir. With
 * `journal.postgres.url` set, serve and the CLI open the Postgres journal (src/journal/open-journal.ts); the
 * URL is checked here for its form only, and the server when the journal is opened.
 */
import { z } from 'zod';
import { integer, section } from './config-fields.js';

const URL_FIX =
  'Write it as postgres://user@host:5432/database, with the password in the URL or in PGPASSWORD.';

/** A postgres:// URL; its value never appears in a message (it may carry a password). */
const postgresUrl = z
  .string({
    error: (issue) =>
      issue.input === undefined ? `is required. ${URL_FIX}` : `expected a string. ${URL_FIX}`,
  })
  .trim()
  // A raw @ or # in the user or password is read differently by different parsers (and leaks its tail).
  .refine((value) => !hasRawSeparator(value), {
    error: `holds a raw @ or # in its user or password (the value is not shown): write them as %40 and %23. ${URL_FIX}`,
  })
  .refine(
    (value) =>
      hasRawSeparator(value) ||
      (URL.canParse(value) && /^postgres(ql)?:$/.test(new URL(value).protocol) && new URL(value).host !== ''),
    {
      error: `expected a postgres:// URL with a host (the value is not shown: it may hold a password). ${URL_FIX}`,
    },
  );

/** What is wrong with `value` as a Postgres journal URL (never quoting it), or undefined when it is fine. */
export function postgresUrlProblem(value: string): string | undefined {
  const parsed = postgresUrl.safeParse(value);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

/** A # anywhere (a Postgres URL has no fragment), or more than one @ before the path. */
function hasRawSeparator(value: string): boolean {
  const authority = /^[^:/?#]*:\/\/([^/?]*)/.exec(value)?.[1] ?? '';
  return value.includes('#') || authority.split('@').length > 2;
}

/** Optional; absent: the journal is SQLite under dataDir, as always. */
export const journalSchema = section({
  postgres: section({
    /**
     * A `postgres://user@host:5432/database` URL for a journal shared by several replicas. With it set,
     * `serve` and the commands that open the journal (stats, doctor, export, restore, import, reindex,
     * reembed) use that Postgres database instead of SQLite (the schema is created at start); a server that
     * cannot be reached, a missing database or a refused login stops the start with one error naming the key,
     * the password hidden. A URL that is not `postgres://` is reported without echoing it, since it may hold
     * a password. See [scaling-out.md](scaling-out.md).
     * @default required in `postgres:`
     */
    url: postgresUrl,
  }).optional(),
  /**
   * How long a replica's claim on the chunks it is writing lasts unless renewed (it renews every third of
   * it while the write runs), 1000-600000 ms. A replica killed mid-write leaves its chunks to the others
   * after this long; shorter hands them over sooner, but a replica stalled longer than this loses its claim
   * and its write is skipped (another writes the chunks). Only a shared (Postgres) journal has other replicas.
   * @default 30000
   */
  claimMs: integer(1000, 600_000, 'Set milliseconds, e.g. 30000.').optional(),
});
