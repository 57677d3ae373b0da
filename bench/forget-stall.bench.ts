/**
 * @module How long forgetting freezes the process: the journal side of `/forget` (tombstones, removals, chunk
 * marks) on a bot with N journaled messages, for 1,000 ids and for a whole source, printing its wall time
 * and the worst event-loop stall (perf_hooks monitorEventLoopDelay) beside a 5 ms ticker.
 * Run: `node --import tsx bench/forget-stall.bench.ts [--messages N]` (default 20000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openSqliteJournal } from '../src/journal/sqlite/sqlite-journal.js';

const at = process.argv.indexOf('--messages');
const MESSAGES = at < 0 ? 20_000 : Number(process.argv[at + 1]);

async function measure(label: string, work: () => Promise<number>): Promise<void> {
  const ticker = setInterval(() => {}, 5);
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  // The monitor's timer starts on the next turn: a forget that never yields would otherwise go unseen.
  await new Promise((resolve) => setTimeout(resolve, 20));
  const started = performance.now();
  const forgotten = await work();
  const wall = performance.now() - started;
  // A few turns more, so a stall at the very end (or a forget that never yields) is sampled too.
  await new Promise((resolve) => setTimeout(resolve, 20));
  delay.disable();
  clearInterval(ticker);
  console.log(`${label} | ${forgotten} | ${wall.toFixed(0)} | ${(delay.max / 1e6).toFixed(1)}`);
}

const dataDir = mkdtempSync(join(tmpdir(), 'mp-forget-bench-'));
const journal = openSqliteJournal(dataDir);
for (let first = 0; first < MESSAGES; first += 500) {
  const batch = Array.from({ length: Math.min(500, MESSAGES - first) }, (_, i) => ({
    bot: 'b',
    source: 'fill',
    messageId: `m${first + i}`,
    speakerKind: 'user' as const,
    text: `message ${first + i} of the forget bench`,
    ts: 1_700_000_000_000 + first + i,
    userId: `u${(first + i) % 7}`,
  }));
  await journal.recordMessages(batch, Date.now());
}
console.log(`journal: ${MESSAGES} messages of one bot`);
console.log('forget | messages forgotten | wall ms | worst event-loop stall ms');
await measure('1,000 ids', async () => {
  const targets = Array.from({ length: 1000 }, (_, i) => ({ id: `m${i * 3}`, source: 'fill' }));
  return (await journal.forgetting.forgetMessages('b', targets, Date.now())).messagesForgotten;
});
await measure('whole source', async () => {
  const targets = await journal.forgetting.findMatching('b', { field: 'source', value: 'fill' });
  return (await journal.forgetting.forgetMessages('b', targets, Date.now())).messagesForgotten;
});
await journal.close();
rmSync(dataDir, { recursive: true, force: true });
