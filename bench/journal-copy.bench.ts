/**
 * @module Benchmark of `memory-pool journal copy`: a SQLite journal of N messages (a chunk per 10, stored)
 * copied into a fresh Postgres 15 database (fsync on), then copied again with nothing changed (what the
 * second run before a cut-over costs). Each round uses a new database; prints each round and the medians of
 * the wall time and rows per second of both runs.
 * Run: node --import tsx bench/journal-copy.bench.ts [--messages 20000 --rounds 3]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { MemoryMessage } from '../src/chunking/memory-message.js';
import { openPostgresCopyTarget } from '../src/journal/postgres/postgres-copy-target.js';
import { openSqliteCopySource } from '../src/journal/sqlite/sqlite-copy-source.js';
import { openSqliteJournal } from '../src/journal/sqlite/sqlite-journal.js';
import { startPostgres } from '../src/journal/test-support/start-postgres.js';
import { copyJournal } from '../src/maintenance/copy-journal.js';

const { values: args } = parseArgs({
  options: { messages: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '3' } },
});
const MESSAGES = Number(args.messages);
const ROUNDS = Number(args.rounds);

/** A journal of MESSAGES messages in 100 conversations, every 10 planned into a stored chunk. */
async function writeJournal(dataDir: string): Promise<void> {
  const journal = openSqliteJournal(dataDir);
  for (let start = 0; start < MESSAGES; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, MESSAGES - start) }, (_, k): MemoryMessage => {
      const n = start + k;
      return {
        bot: 'mythos',
        source: 'api',
        channelId: `c${n % 100}`,
        messageId: `m${n}`,
        speakerKind: n % 2 === 0 ? 'self' : 'user',
        text: `message ${n}, long enough to look like a line of a chat between two people`,
        ts: n * 1000,
      };
    });
    await journal.recordMessages(batch, start);
    for (let c = 0; c < batch.length; c += 10) {
      const ids = batch.slice(c, c + 10).map((m) => m.messageId);
      await journal.chunks.planChunk(
        { chunkId: `k${start + c}`, bot: 'mythos', collection: 'mem', source: 'api', messageIds: ids },
        start,
      );
      await journal.chunks.markChunkStored(`k${start + c}`, 0, start);
    }
  }
  await journal.close();
}

async function timeCopy(dataDir: string, url: string): Promise<{ ms: number; rows: number }> {
  const source = openSqliteCopySource(dataDir);
  const target = await openPostgresCopyTarget(url);
  const started = performance.now();
  try {
    const summary = await copyJournal(source, target, { targetLabel: '--to' });
    const rows = Object.values(summary.tables).reduce((sum, t) => sum + t.rows, 0);
    return { ms: performance.now() - started, rows };
  } finally {
    source.close();
    await target.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const dir = mkdtempSync(join(tmpdir(), 'memory-pool-copy-bench-'));
const server = await startPostgres({ durable: true });
try {
  await writeJournal(join(dir, 'data'));
  const first: number[] = [];
  const again: number[] = [];
  let rows = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    const url = await server.createDatabase(`copy_bench_${round}`);
    const a = await timeCopy(join(dir, 'data'), url);
    const b = await timeCopy(join(dir, 'data'), url);
    rows = a.rows;
    first.push(a.ms);
    again.push(b.ms);
    console.log(
      `round ${round}: first copy ${a.ms.toFixed(0)} ms, again ${b.ms.toFixed(0)} ms (load ${loadavg()[0]!.toFixed(1)})`,
    );
  }
  const rate = (ms: number) => ((rows / ms) * 1000).toFixed(0);
  console.log(`${rows} rows (${MESSAGES} messages), median of ${ROUNDS} rounds:`);
  console.log(`  first copy  ${median(first).toFixed(0)} ms, ${rate(median(first))} rows/s`);
  console.log(`  copy again  ${median(again).toFixed(0)} ms, ${rate(median(again))} rows/s`);
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
