/**
 * @module What the Discord gap back-fill's delete check costs the journal: `forgetting.journaledInChannel`
 * (the messages a channel recorded in a gap read's range, asked once per channel read) on a journal of
 * `--messages` Discord messages over `--channels` channels, one a second. Beside it, for scale,
 * `findMatching` by channel (what counting or forgetting a channel runs: every id of the channel). Rounds
 * alternate the two on SQLite, then on a local Postgres with `--postgres`; prints medians in ms.
 * Run: node --import tsx bench/gap-deletes.bench.ts [--messages 100000 --channels 20 --rounds 15 --postgres]
 *
 * Measured (session 26, 2 shared cores, load average 4.5-4.9), medians: 100,000 messages, 15 rounds:
 * journaledInChannel 11.1 ms on SQLite, 15.2 ms on Postgres (findMatching by channel 11.1 / 19.5 ms);
 * 1,000,000 messages on SQLite, 9 rounds: 113 ms (findMatching 167 ms). A scan, linear in the bot's Discord
 * messages (no index on channels): a takeover with 20 recorded channels at 1M messages holds SQLite's queue
 * about 2.3 s in all, a channel at a time between paced history reads. An index on (bot, channel_id, ts)
 * would make it a range read, at a cost on every save: not added.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { MemoryMessage } from '../src/chunking/memory-message.js';
import type { Journal } from '../src/journal/journal.js';
import { openPostgresJournal } from '../src/journal/postgres/postgres-journal.js';
import { openSqliteJournal } from '../src/journal/sqlite/sqlite-journal.js';
import { startPostgres } from '../src/journal/test-support/start-postgres.js';

const { values: args } = parseArgs({
  options: {
    messages: { type: 'string', default: '100000' },
    channels: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '15' },
    postgres: { type: 'boolean', default: false },
  },
});
const MESSAGES = Number(args.messages);
const CHANNELS = Number(args.channels);
const ROUNDS = Number(args.rounds);
const T0 = 1_700_000_000_000;
/** A gap read's range: the last two minutes of the journal (a minute's overlap and a ~20 s takeover). */
const RANGE_MS = 120_000;

async function fill(journal: Journal): Promise<void> {
  for (let start = 0; start < MESSAGES; start += 1000) {
    const batch: MemoryMessage[] = [];
    for (let i = start; i < Math.min(MESSAGES, start + 1000); i += 1) {
      batch.push({
        bot: 'mythos',
        source: 'discord',
        messageId: String(1_100_000_000_000_000_000n + BigInt(i)),
        speakerKind: 'user',
        text: `message ${i}: something said in channel ${i % CHANNELS}`,
        ts: T0 + i * 1000,
        channelId: `c${i % CHANNELS}`,
      });
    }
    await journal.recordMessages(batch, T0);
  }
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timeIt(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function measure(name: string, journal: Journal): Promise<void> {
  const filled = await timeIt(() => fill(journal));
  const until = T0 + (MESSAGES - 1) * 1000;
  const inRange: number[] = [];
  const wholeChannel: number[] = [];
  let found = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const channelId = `c${round % CHANNELS}`;
    const pair = [
      async () => {
        inRange.push(
          await timeIt(async () => {
            found = (
              await journal.forgetting.journaledInChannel(
                'mythos',
                'discord',
                channelId,
                until - RANGE_MS,
                until,
              )
            ).length;
          }),
        );
      },
      async () => {
        wholeChannel.push(
          await timeIt(() =>
            journal.forgetting.findMatching('mythos', { field: 'channelId', value: channelId }, ['discord']),
          ),
        );
      },
    ];
    for (const run of round % 2 === 0 ? pair : [...pair].reverse()) await run();
  }
  console.log(
    `${name}: ${MESSAGES} messages in ${CHANNELS} channels (filled in ${(filled / 1000).toFixed(1)} s); ` +
      `journaledInChannel (${found} in range) median ${median(inRange).toFixed(2)} ms; ` +
      `findMatching by channel median ${median(wholeChannel).toFixed(2)} ms; ${ROUNDS} rounds each`,
  );
}

console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
const dir = mkdtempSync(join(tmpdir(), 'gap-deletes-bench-'));
try {
  const sqlite = openSqliteJournal(dir);
  await measure('SQLite', sqlite);
  await sqlite.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (args.postgres) {
  const server = await startPostgres({ durable: true });
  try {
    const postgres = await openPostgresJournal(await server.createDatabase('gap_deletes'));
    await measure('Postgres', postgres);
    await postgres.close();
  } finally {
    await server.stop();
  }
}
console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
