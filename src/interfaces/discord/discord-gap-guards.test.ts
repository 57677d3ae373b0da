/**
 * @module A gap read forgets what was deleted meanwhile only when it read the whole gap: never after a read cut at
 * GAP_LIMIT, nor after a read that failed (a channel no longer readable). Each case fails over between two
 * replicas (real discord.js clients, fake gateway, one SQLite journal) with #general, #offtopic and an active
 * thread under #general recorded: #offtopic's and the thread's complete reads still forget their deleted
 * message, so the guard is per channel, and threads are read like channels. Nor is a proxy's original taken for
 * deleted when the read holds its repost.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openSqliteJournal } from '../../journal/sqlite/sqlite-journal.js';
import { GAP_LIMIT } from './channel-backfill.js';
import type { DiscordGatewayLease } from './discord-gateway-lease.js';
import { type CountingMemory, createCountingMemory } from './test-support/counting-memory.js';
import { BOT_USER, GENERAL, guildPayload, OFFTOPIC, threadPayload } from './test-support/discord-harness.js';
import { type FakeDiscord, startFakeDiscord } from './test-support/fake-discord.js';
import {
  createGatewayReplicas,
  type ServedHistory,
  serveChannelHistory,
  until,
} from './test-support/gateway-replicas.js';

const THREAD = '200000000000000009';

interface Gap {
  readonly fake: FakeDiscord;
  readonly counting: CountingMemory;
  readonly general: ServedHistory;
  /** The ids recorded before the gap and deleted during it, in #general, #offtopic and the thread. */
  readonly deleted: { readonly general: string; readonly offtopic: string; readonly thread: string };
}

/**
 * Records one message in each channel, kills the holder, deletes both, runs `meanwhile`, and waits until the
 * other replica has connected and handled its gap reads.
 */
async function failOverWithDeletes(meanwhile: (gap: Omit<Gap, 'deleted'>) => Promise<void>): Promise<Gap> {
  const dir = mkdtempSync(join(tmpdir(), 'mp-discord-gap-guard-'));
  const fake = await startFakeDiscord({
    botUser: BOT_USER,
    guilds: [{ ...guildPayload(), threads: [threadPayload(THREAD, GENERAL)] }],
  });
  const counting = createCountingMemory();
  const journals = [openSqliteJournal(dir), openSqliteJournal(dir)];
  const replicas = createGatewayReplicas({
    fake,
    journals,
    memory: counting.memory,
    ttlMs: 1500,
    renewMs: 250,
    // Webhook posts are recorded, so a proxy's repost would be recorded twice if the rule did not hold.
    discord: { channels: [GENERAL, OFFTOPIC], otherBots: 'all' },
  });
  const [first, second] = replicas as [DiscordGatewayLease, DiscordGatewayLease];
  try {
    await first.start();
    await second.start();
    const general = serveChannelHistory(fake, GENERAL);
    const offtopic = serveChannelHistory(fake, OFFTOPIC);
    const thread = serveChannelHistory(fake, THREAD);
    const deleted = {
      general: await general.post('my phone number is 555 0100', true),
      offtopic: await offtopic.post('my locker code is 4711', true),
      thread: await thread.post('my flat is the one above the bakery', true),
    };
    await until(() => Object.values(deleted).every((id) => counting.saves.has(id)));
    await first.abandon();
    general.remove(deleted.general);
    offtopic.remove(deleted.offtopic);
    thread.remove(deleted.thread);
    await meanwhile({ fake, counting, general });
    await until(() => second.connection !== undefined);
    await replicas[1]?.connection?.idle();
    return { fake, counting, general, deleted };
  } finally {
    for (const replica of replicas) await replica.close();
    for (const journal of journals) await journal.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a gap read cut at GAP_LIMIT forgets nothing in that channel', { timeout: 60_000 }, async () => {
  let posted: string[] = [];
  const { counting, deleted } = await failOverWithDeletes(async ({ general }) => {
    posted = [];
    for (let i = 0; i < GAP_LIMIT; i += 1) posted.push(await general.post(`busy channel line ${i}`, false));
  });
  assert.ok(
    posted.every((id) => counting.saves.get(id) === 1),
    'the gap read recorded what it read',
  );
  assert.ok(
    counting.texts.has(deleted.general),
    'not forgotten: the read did not reach back to the gap start',
  );
  assert.deepEqual(
    [...counting.forgotten].sort(),
    [deleted.offtopic, deleted.thread].sort(),
    "#offtopic's and the thread's complete reads forgot their delete",
  );
});

test('a gap read that fails (the channel no longer readable) forgets nothing there', {
  timeout: 30_000,
}, async () => {
  const { counting, deleted } = await failOverWithDeletes(async ({ fake }) => {
    fake.respond((call) =>
      call.method === 'GET' && call.path === `/channels/${GENERAL}/messages`
        ? { status: 403, body: { code: 50001, message: 'Missing Access' } }
        : undefined,
    );
  });
  assert.ok(counting.texts.has(deleted.general), 'not forgotten: nothing is known of #general');
  assert.deepEqual([...counting.forgotten].sort(), [deleted.offtopic, deleted.thread].sort());
});

test("a proxy's repost made during the gap keeps its original and is not recorded", {
  timeout: 30_000,
}, async () => {
  let repost = '';
  const { counting, deleted } = await failOverWithDeletes(async ({ general }) => {
    // PluralKit deleted the person's message (the helper removed it) and reposted its text by webhook.
    repost = await general.post('my phone number is 555 0100', false, {
      webhookId: '800000000000000001',
      author: { id: '800000000000000001', username: 'Helen (PluralKit)', bot: true },
    });
  });
  assert.ok(counting.texts.has(deleted.general), "the person's own message is kept");
  assert.equal(counting.saves.has(repost), false, 'the repost is not recorded beside it');
  assert.deepEqual([...counting.forgotten].sort(), [deleted.offtopic, deleted.thread].sort());
});
