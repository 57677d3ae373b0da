/**
 * @module What a linked person's DM recall reads of the journal (people/read-person-dms.ts), with and without the
 * check for renames left that decides whether `dmWith` may be trusted: a SQLite journal with N DM messages over
 * N/100 accounts, Anna linked with two of them, and rounds alternating the two reads (the one before `dmWith`:
 * the person and the DM channels; now: the same plus the renames left). With `--queued`, that many chunks are
 * left queued by a rename (the check then reads them). Run:
 * `node --import tsx bench/person-dms.bench.ts [--messages N] [--queued N] [--rounds N]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccountKey } from '../src/journal/journal-people.js';
import { openSqliteJournal } from '../src/journal/sqlite/sqlite-journal.js';
import { readPersonDms } from '../src/people/read-person-dms.js';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
};
const MESSAGES = arg('--messages', 20_000);
const QUEUED = arg('--queued', 0);
const ROUNDS = arg('--rounds', 5);
const CALLS = 500;
const bot = 'mythos';
const dir = mkdtempSync(join(tmpdir(), 'memory-pool-person-dms-bench-'));
const journal = openSqliteJournal(dir);
const anna: AccountKey = { kind: 'user', value: 'telegram:0' };

/** The read before `dmWith`: the person, the asker's DMs and the person's. */
async function readChannelsOnly(account: AccountKey) {
  const person = await journal.people.personOf(bot, account);
  if (person === undefined) return undefined;
  return Promise.all([
    journal.people.dmChannels(bot, [account]),
    journal.people.dmChannels(bot, person.accounts),
  ]);
}

async function timeCalls(read: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) await read();
  return ((performance.now() - started) * 1000) / CALLS;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

try {
  for (let first = 0; first < MESSAGES; first += 1000) {
    const messages = [];
    for (let i = first; i < Math.min(MESSAGES, first + 1000); i++) {
      const who = i % (MESSAGES / 100);
      messages.push({
        bot,
        source: 'hermes',
        channelId: `tg-${who}`,
        isDm: true,
        ts: i,
        messageId: `m${i}`,
        speakerKind: 'user' as const,
        text: `message ${i}`,
        userId: `telegram:${who}`,
      });
    }
    await journal.recordMessages(messages, 1);
  }
  const accounts: AccountKey[] = [anna, { kind: 'user', value: 'telegram:1' }];
  await journal.people.create(bot, { id: 'p1', name: 'Anna', accounts }, 2);
  // The link's rename request taken, as a pass does; with --queued, its chunks left to rewrite.
  await journal.transaction(async (tx) => {
    for (let i = 0; i < QUEUED; i++) {
      const chunk = { chunkId: `ch${i}`, bot, collection: 'mem_mythos', source: 'hermes' };
      await tx.chunks.planChunk({ ...chunk, messageIds: [`m${i}`] }, 3);
    }
  });
  const chunkIds = Array.from({ length: QUEUED }, (_, i) => `ch${i}`);
  await journal.renames.queueRewrites(bot, await journal.renames.requests(bot), chunkIds, 4);
  const before: number[] = [];
  const now: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating which goes first, so neither always runs on a warmer cache.
    const pair = [
      async () => before.push(await timeCalls(() => readChannelsOnly(anna))),
      async () => now.push(await timeCalls(() => readPersonDms(journal, bot, anna))),
    ];
    for (const run of round % 2 === 0 ? pair : pair.reverse()) await run();
  }
  const trusted = (await readPersonDms(journal, bot, anna))?.dmWith !== undefined;
  console.log(
    `${MESSAGES} DM messages, ${QUEUED} chunks queued by a rename (dmWith ${trusted ? 'used' : 'not used'}): ` +
      `channels only ${median(before).toFixed(0)} µs, with the renames check ${median(now).toFixed(0)} µs ` +
      `a read (medians of ${ROUNDS} alternating rounds of ${CALLS}; load ${loadavg()[0]!.toFixed(2)})`,
  );
} finally {
  await journal.close();
  rmSync(dir, { recursive: true, force: true });
}
