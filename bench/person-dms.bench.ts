/**
 * @module What a linked person's DM recall reads of the journal (people/read-person-dms.ts): a SQLite journal with
 * N DM messages over N/100 accounts, Anna linked with two of them, and rounds alternating three reads: the old
 * plan (the person, then the DM channels by the same query without its `INDEXED BY messages_by_user`, which
 * SQLite, with no statistics, runs by walking every message of the bot), the channels by the hinted query, and
 * now (the hinted channels plus the check for renames left that decides whether `dmWith` may be trusted). With
 * `--queued`, that many chunks are left queued by a rename (the check then reads them). Run:
 * `node --import tsx bench/person-dms.bench.ts [--messages N] [--queued N] [--rounds N]`.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccountKey } from '../src/journal/journal-people.js';
import { journaledUserIds } from '../src/journal/people-rows.js';
import { DM_CHANNELS_SQL } from '../src/journal/sqlite/sqlite-people.js';
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

/** The same query without its index hint: the plan SQLite picks by itself (a second connection, read only). */
const UNHINTED_SQL = DM_CHANNELS_SQL.replace('INDEXED BY messages_by_user', '');
if (UNHINTED_SQL === DM_CHANNELS_SQL)
  throw new Error('DM_CHANNELS_SQL has no INDEXED BY hint left to remove');
let raw: Database.Database | undefined;

/** The old plan: the person, then the asker's DMs and the person's by the unhinted query. */
async function readChannelsUnhinted(account: AccountKey) {
  const person = await journal.people.personOf(bot, account);
  if (person === undefined) return undefined;
  const query = raw!.prepare(UNHINTED_SQL);
  const read = (accounts: readonly AccountKey[]) =>
    journaledUserIds(accounts).flatMap(({ userId, source }) => query.all(bot, userId, source, source));
  return [read([account]), read(person.accounts)];
}

/** The hinted channels alone: the person, the asker's DMs and the person's. */
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
  raw = new Database(join(dir, 'journal.sqlite'), { readonly: true });
  const plan = raw.prepare(`EXPLAIN QUERY PLAN ${UNHINTED_SQL}`).all(bot, 'telegram:0', null, null);
  const oldPlan: number[] = [];
  const before: number[] = [];
  const now: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Rotating which goes first, so none always runs on a warmer cache.
    const runs = [
      async () => oldPlan.push(await timeCalls(() => readChannelsUnhinted(anna))),
      async () => before.push(await timeCalls(() => readChannelsOnly(anna))),
      async () => now.push(await timeCalls(() => readPersonDms(journal, bot, anna))),
    ];
    for (let i = 0; i < runs.length; i++) await runs[(round + i) % runs.length]!();
  }
  const trusted = (await readPersonDms(journal, bot, anna))?.dmWith !== undefined;
  console.log(
    `${MESSAGES} DM messages, ${QUEUED} chunks queued by a rename (dmWith ${trusted ? 'used' : 'not used'}): ` +
      `old plan (no index hint) ${median(oldPlan).toFixed(0)} µs, hinted channels only ${median(before).toFixed(0)} µs, ` +
      `with the renames check ${median(now).toFixed(0)} µs ` +
      `a read (medians of ${ROUNDS} alternating rounds of ${CALLS}; load ${loadavg()[0]!.toFixed(2)})`,
  );
  console.log(
    `the unhinted query's plan: ${plan.map((row) => (row as { detail: string }).detail).join('; ')}`,
  );
} finally {
  raw?.close();
  await journal.close();
  rmSync(dir, { recursive: true, force: true });
}
