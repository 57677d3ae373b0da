/**
 * @module Benchmark of the journal's two backends on the /save path alone (no HTTP, no embedder): 10
 * conversations re-send their last 20 messages with 2 new ones a turn, each window recorded and flushed
 * (what /save waits for), on SQLite (WAL, fsync by flush) and on a local Postgres 15 with fsync on. Rounds
 * alternate the backends so machine noise hits both; prints each round and the median over rounds of the
 * per-window p50/p99 and windows per second. A last case saves every window on two Postgres pools at once
 * (two replicas given the same traffic): each message must still be stored once.
 * Run: node --import tsx bench/journal-backends.bench.ts [--windows 500 --rounds 3]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { MemoryMessage } from '../src/chunking/memory-message.js';
import type { Journal } from '../src/journal/journal.js';
import { openPostgresJournal } from '../src/journal/postgres/postgres-journal.js';
import { openSqliteJournal } from '../src/journal/sqlite/sqlite-journal.js';
import { startPostgres } from '../src/journal/test-support/start-postgres.js';
import { percentile } from './support/service-client.js';

const { values: args } = parseArgs({
  options: { windows: { type: 'string', default: '500' }, rounds: { type: 'string', default: '3' } },
});
const WINDOWS = Number(args.windows);
const ROUNDS = Number(args.rounds);
const CONVERSATIONS = 10;

/** The windows, in sending order: conversation i's turn t re-sends its last 20 messages. */
function windowsFor(bot: string): MemoryMessage[][] {
  return Array.from({ length: WINDOWS }, (_, n) => {
    const conversation = n % CONVERSATIONS;
    const turn = Math.floor(n / CONVERSATIONS) + 1;
    const last = turn * 2;
    return Array.from({ length: Math.min(20, last) }, (_, k) => {
      const index = last - Math.min(20, last) + k + 1;
      return {
        bot,
        source: 'api',
        channelId: `c${conversation}`,
        messageId: `c${conversation}-${index}`,
        speakerKind: index % 2 === 0 ? 'self' : 'user',
        text: `message ${index} of conversation ${conversation}, long enough to look like a chat line`,
        ts: index * 1000,
      } satisfies MemoryMessage;
    });
  });
}

interface Figures {
  p50: number;
  p99: number;
  perSecond: number;
  accepted: number;
}

/** Records every window on `journals` (round-robin when two), each followed by a flush. */
async function run(
  journals: readonly Journal[],
  windows: MemoryMessage[][],
  concurrent: boolean,
): Promise<Figures> {
  const latencies: number[] = [];
  let accepted = 0;
  const save = async (journal: Journal, window: MemoryMessage[]) => {
    const start = performance.now();
    // Read after the await: `accepted += await …` would add to a value read before it (two saves run at once).
    const result = await journal.recordMessages(window, Date.now());
    accepted += result.accepted;
    await journal.flush();
    latencies.push(performance.now() - start);
  };
  const began = performance.now();
  for (const window of windows) {
    if (concurrent) await Promise.all(journals.map((journal) => save(journal, window)));
    else await save(journals[0]!, window);
  }
  const seconds = (performance.now() - began) / 1000;
  latencies.sort((x, y) => x - y);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    perSecond: windows.length / seconds,
    accepted,
  };
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
const show = (f: Figures) =>
  `p50 ${f.p50.toFixed(2)} ms  p99 ${f.p99.toFixed(2)} ms  ${f.perSecond.toFixed(0)} windows/s  (${f.accepted} accepted)`;

const server = await startPostgres({ durable: true });
const results: Record<'sqlite' | 'postgres' | 'postgres x2', Figures[]> = {
  sqlite: [],
  postgres: [],
  'postgres x2': [],
};
try {
  for (let round = 1; round <= ROUNDS; round += 1) {
    const dir = mkdtempSync(join(tmpdir(), 'memory-pool-journal-bench-'));
    const sqlite = openSqliteJournal(dir);
    results.sqlite.push(await run([sqlite], windowsFor('b'), false));
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
    const url = await server.createDatabase(`bench_${round}`);
    const postgres = await openPostgresJournal(url);
    results.postgres.push(await run([postgres], windowsFor('b'), false));
    const second = await openPostgresJournal(url);
    results['postgres x2'].push(await run([postgres, second], windowsFor('b2'), true));
    await Promise.all([postgres.close(), second.close()]);
    for (const [name, list] of Object.entries(results))
      console.log(`round ${round} ${name.padEnd(11)} ${show(list.at(-1)!)}`);
  }
} finally {
  await server.stop();
}
console.log(`\nmedian over ${ROUNDS} rounds, ${WINDOWS} windows of up to 20 messages:`);
for (const [name, list] of Object.entries(results)) {
  console.log(
    `${name.padEnd(11)} p50 ${median(list.map((f) => f.p50)).toFixed(2)} ms  p99 ${median(list.map((f) => f.p99)).toFixed(2)} ms  ${median(list.map((f) => f.perSecond)).toFixed(0)} windows/s  accepted ${list.map((f) => f.accepted).join('/')}`,
  );
}
