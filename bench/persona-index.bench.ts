/**
 * @module What the Postgres journal's schema-4 migration costs a big journal: its `messages_by_persona` index is
 * built inside the migration transaction (plain CREATE INDEX), which blocks writes to `messages` while it runs.
 * Fills a throwaway Postgres journal with N messages (a share of them SillyTavern history: no user id), then
 * builds the index as the migration does while another connection saves one message every 10 ms, and prints the
 * build time and the longest save wait; then the same with CREATE INDEX CONCURRENTLY for comparison.
 * Run: node --import tsx bench/persona-index.bench.ts [--messages 1000000] [--persona-share 0.2] [--rounds 3]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openPostgresJournal } from '../src/journal/postgres/postgres-journal.js';
import { startPostgres } from '../src/journal/test-support/start-postgres.js';

const { values: args } = parseArgs({
  options: {
    messages: { type: 'string', default: '1000000' },
    'persona-share': { type: 'string', default: '0.2' },
    rounds: { type: 'string', default: '3' },
  },
});
const N = Number(args.messages);
const load = () => loadavg()[0]!.toFixed(2);
const INDEX = `messages_by_persona ON messages (bot, speaker_name) WHERE user_id IS NULL AND speaker_kind = 'user'`;

const server = await startPostgres({ durable: true, dedicated: true });
try {
  const url = await server.createDatabase('persona_index');
  // The schema as this build creates it, then without the index: a journal as schema 3 left it.
  await (await openPostgresJournal(url)).close();
  const db = new pg.Client({ connectionString: url });
  const writer = new pg.Client({ connectionString: url });
  await Promise.all([db.connect(), writer.connect()]);
  let started = performance.now();
  await db.query(
    `INSERT INTO messages (bot, message_id, source, conversation, speaker_kind, text, ts, user_id, speaker_name,
       arrived_at, chunk_id)
     SELECT 'mythos', 'm' || i, CASE WHEN random() < $2 THEN 'sillytavern' ELSE 'discord' END, 'c' || (i / 50),
       CASE WHEN i % 2 = 0 THEN 'user' ELSE 'self' END, 'message ' || i || ' about the lighthouse at the pier',
       i, NULL, 'name' || (i % 40), i, 'k' || (i / 10)
     FROM generate_series(1, $1) AS i`,
    [N, Number(args['persona-share'])],
  );
  // Messages from other platforms carry a user id.
  await db.query("UPDATE messages SET user_id = 'u' || (ts % 500) WHERE source = 'discord'");
  await db.query('VACUUM ANALYZE messages');
  console.log(`${N} messages in ${((performance.now() - started) / 1000).toFixed(1)} s (load ${load()})`);

  /** Builds the index with `sql` while the writer saves every 10 ms; the build's time and the longest save. */
  const measure = async (sql: string, inTransaction: boolean) => {
    await db.query('DROP INDEX IF EXISTS messages_by_persona');
    let building = true;
    let longest = 0;
    let saves = 0;
    const saving = (async () => {
      while (building) {
        const t0 = performance.now();
        await writer.query(
          `INSERT INTO messages (bot, message_id, source, conversation, speaker_kind, text, ts, arrived_at)
           VALUES ('mythos', $1, 'api', 'w', 'user', 'a save during the migration', 1, 1)`,
          [`w${saves++}-${Math.random()}`],
        );
        longest = Math.max(longest, performance.now() - t0);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 100));
    started = performance.now();
    if (inTransaction) await db.query('BEGIN');
    await db.query(sql);
    if (inTransaction) await db.query('COMMIT');
    const built = performance.now() - started;
    building = false;
    await saving;
    return { built, longest, saves };
  };
  for (let round = 0; round < Number(args.rounds); round++) {
    // Alternated, so neither always runs on the warmer cache.
    const order = round % 2 === 0 ? ['plain', 'concurrently'] : ['concurrently', 'plain'];
    for (const kind of order) {
      const r =
        kind === 'plain'
          ? await measure(`CREATE INDEX IF NOT EXISTS ${INDEX}`, true)
          : await measure(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${INDEX}`, false);
      console.log(
        `round ${round + 1} ${kind}: built in ${(r.built / 1000).toFixed(2)} s; longest save ${r.longest.toFixed(0)} ms over ${r.saves} saves (load ${load()})`,
      );
    }
  }
  await Promise.all([db.end(), writer.end()]);
} finally {
  await server.stop();
}
