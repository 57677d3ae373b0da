/**
 * @module A SQLite journal holding a row of every table (for `memory-pool journal copy`), and readers of
 * everything the journal port shows of it, so a copy can be compared row by row.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Journal } from '../../../journal/journal.js';
import { SNAPSHOT_TABLES } from '../../../journal/journal-snapshot.js';
import { openPostgresJournal } from '../../../journal/postgres/postgres-journal.js';
import { openSqliteJournal } from '../../../journal/sqlite/sqlite-journal.js';

/** The fixture's bot and its configured collection. */
export const BOT = 'mythos';
export const COLLECTION = 'mem_mythos';

/** A config whose SQLite journal (under `dir`) holds a row of every table, some text with U+0000 and `\`. */
export async function writeSource(dir: string): Promise<string> {
  const dataDir = join(dir, 'data');
  const journal = openSqliteJournal(dataDir);
  const message = (id: string, text: string, extra = {}) => ({
    bot: BOT,
    source: 'api',
    messageId: id,
    speakerKind: 'user' as const,
    text,
    ts: 1000 + Number(id.slice(1)),
    ...extra,
  });
  await journal.recordMessages(
    [
      message('m1', 'a\u0000b \\0 c', { speakerName: 'Ann\u0000\\', userId: 'u1' }),
      message('m2', 'two', { channelId: 'c9', guildId: 'g1' }),
      message('m3', 'three'),
      message('m4', 'four'),
      message('m5', 'five', { source: 'discord', isDm: true }),
      message('m6', 'six'),
      message('m7', 'seven'),
    ],
    10,
  );
  await journal.chunks.planChunk(
    { chunkId: 'c1', bot: BOT, collection: COLLECTION, source: 'api', messageIds: ['m1', 'm2'] },
    11,
  );
  await journal.chunks.markChunkStored('c1', 0, 12);
  await journal.chunks.planChunk(
    { chunkId: 'c2', bot: BOT, collection: COLLECTION, source: 'api', messageIds: ['m3'] },
    13,
  );
  await journal.chunks.markChunkFailed('c2', 0, 'store said \u0000 no', 14);
  await journal.forgetting.forgetMessages(BOT, [{ id: 'm4' }], 15);
  await journal.forgetting.forgetMessages(BOT, [{ id: 'gone' }], 16, ['discord']);
  await journal.forgetting.recordAudit({
    at: 16,
    actor: 'k1',
    bot: BOT,
    selector: { id: 'm4' },
    result: { n: 1 },
  });
  await journal.recordCollectionModel(COLLECTION, 'hashing', 8, 17);
  await journal.partsIndexes.recordStarted(COLLECTION, true, 18);
  await journal.routes.beginReembed('mem_other', 'mem_other', 'mem_other-v2', '{"provider":"hashing"}', 19);
  await journal.routes.switchTo(COLLECTION, `${COLLECTION}-v2`, 20);
  await journal.snapshots.recordRestore(COLLECTION, 'snap.jsonl', true, 21);
  await journal.discord.setOptedOut(BOT, 'u1', true, 22);
  await journal.discord.setChannelRule(BOT, 'c9', 'deny');
  await journal.discord.markBackfilled(BOT, 'c8', 23);
  await journal.discord.noteForgotten(BOT, 'user', 'u2', 24);
  await journal.discord.noteThread(BOT, 't1', 'c8', true);
  await journal.discord.markConnected(BOT, 25);
  await journal.people.create(
    BOT,
    {
      id: 'p1',
      name: 'Ann \\ B',
      accounts: [
        { kind: 'user', value: 'u1' },
        { kind: 'persona', value: 'Ann' },
      ],
    },
    26,
  );
  await journal.close();
  const config = join(dir, 'memory-pool.yaml');
  writeFileSync(
    config,
    `dataDir: ${JSON.stringify(dataDir)}\nbots: { ${BOT}: { selfSpeaker: Mythos, collection: ${COLLECTION} } }\n`,
  );
  return config;
}

/** Everything the journal port reads of the source's rows. */
export async function readJournal(journal: Journal): Promise<Record<string, unknown>> {
  const names = { bot: BOT, collection: COLLECTION };
  const rows: Record<string, unknown> = {};
  for (const table of SNAPSHOT_TABLES) rows[table] = await journal.snapshots.readRows(table, names);
  return {
    ...rows,
    audit: await journal.forgetting.listAudit({ limit: 10 }),
    route: await journal.routes.routeOf(COLLECTION),
    reembed: await journal.routes.reembedOf('mem_other'),
    embedding: await journal.routes.embeddingOf('mem_other-v2'),
    parts: await journal.partsIndexes.isComplete(COLLECTION),
    restore: await journal.snapshots.restoreOf(COLLECTION),
    pending: await journal.pendingConversations(),
    chunkMessages: await journal.chunks.chunkMessages('c1'),
    depth: await journal.queueDepth(),
    discord: await journal.discord.readState(BOT),
    people: await journal.people.list(BOT),
  };
}

export async function readDataDir(dir: string): Promise<Record<string, unknown>> {
  const journal = openSqliteJournal(join(dir, 'data'));
  try {
    return await readJournal(journal);
  } finally {
    await journal.close();
  }
}

export async function readPostgres(url: string): Promise<Record<string, unknown>> {
  const journal = await openPostgresJournal(url);
  try {
    return await readJournal(journal);
  } finally {
    await journal.close();
  }
}
