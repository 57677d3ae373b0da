/**
 * @module Review s24 finding 3, through the real path: two replicas with real discord.js clients against the fake
 * gateway, over one journal (two connections; SQLite, and Postgres when available) and the service's own
 * operations on one store. A message
 * recorded before the holder died and deleted on Discord during the gap is forgotten by the takeover's gap read:
 * no chunk or part holds its text afterwards; what is still in the history stays.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, type TestContext, test } from 'node:test';
import type { MemoryPoolConfig } from '../../config/config-types.js';
import { testBot } from '../../config/test-support/test-bot.js';
import { assembleService } from '../../core/assemble-service.js';
import { HashingEmbedder } from '../../embedding/hashing/hashing-embedder.js';
import type { Journal } from '../../journal/journal.js';
import { openPostgresJournal } from '../../journal/postgres/postgres-journal.js';
import { openSqliteJournal } from '../../journal/sqlite/sqlite-journal.js';
import { skipWithoutPostgres, startPostgres } from '../../journal/test-support/start-postgres.js';
import { createLogger } from '../../logging/logger.js';
import { createMemoryPointStore } from '../../store/test-support/memory-point-store.js';
import type { DiscordGatewayLease } from './discord-gateway-lease.js';
import { createInProcessDiscordMemory } from './in-process-memory.js';
import { BOT_USER, GENERAL, guildPayload } from './test-support/discord-harness.js';
import { startFakeDiscord } from './test-support/fake-discord.js';
import { createGatewayReplicas, serveChannelHistory, until } from './test-support/gateway-replicas.js';

/** Records two messages, kills the holder, deletes one on Discord, and checks what the takeover left. */
async function forgetAcrossGap(openJournal: () => Promise<Journal>, t: TestContext): Promise<void> {
  const journals = [await openJournal(), await openJournal()];
  const store = createMemoryPointStore();
  const bot = testBot('mythos');
  const service = await assembleService({
    config: {
      embedding: { provider: 'hashing', dimensions: 16 },
      readiness: { timeoutMs: 2000, embedderCacheMs: 5000 },
      limits: { maxBodyBytes: 1_048_576, maxMessagesPerSave: 500, maxTextChars: 16_000 },
      apiKeys: [],
      bots: { mythos: bot },
    } as unknown as MemoryPoolConfig,
    store,
    journal: journals[0]!,
    embedder: new HashingEmbedder({ dimensions: 16 }),
    logger: createLogger({ level: 'silent' }),
    processMetrics: false,
  });
  const fake = await startFakeDiscord({ botUser: BOT_USER, guilds: [guildPayload()] });
  const memory = createInProcessDiscordMemory(service.operations, bot);
  const replicas = createGatewayReplicas({ fake, journals, memory, ttlMs: 1500, renewMs: 250 });
  t.after(async () => {
    for (const replica of replicas) await replica.close();
    await service.close();
    for (const journal of journals) await journal.close();
    await fake.close();
  });
  const [first, second] = replicas as [DiscordGatewayLease, DiscordGatewayLease];
  const recorded = async (id: string) =>
    (await journals[1]!.forgetting.journaledAmong('mythos', 'discord', [id])).size > 0;
  /** Every text any point of any collection holds (chunks and their parts). */
  const heldTexts = async () =>
    (await store.listCollections()).flatMap((name) =>
      store.heldPoints(name).map((point) => JSON.stringify(point.payload)),
    );

  await first.start();
  await second.start();
  const general = serveChannelHistory(fake, GENERAL);
  const kept = await general.post('the ferry leaves at nine from the north pier', true);
  const address = await general.post('my address is 12 Elm St, please keep it private', true);
  await until(async () => (await recorded(kept)) && (await recorded(address)));
  await service.writer.runOnce({ flush: true });
  assert.ok(
    (await heldTexts()).some((text) => text.includes('12 Elm St')),
    'stored before the gap',
  );
  const parts = store.heldPoints('mem_mythos__parts').map((point) => JSON.stringify(point.payload));
  assert.ok(
    parts.some((text) => text.includes('12 Elm St')),
    'a part holds it too',
  );

  await first.abandon(); // SIGKILL: no release, no last words
  general.remove(address); // deleted by its author while nobody is connected
  const meanwhile = await general.post('meanwhile: the cafe moved to the square', false);
  await until(() => second.connection !== undefined);
  await until(() => recorded(meanwhile));
  await replicas[1]?.connection?.idle();
  await service.writer.runOnce({ flush: true });

  assert.equal(await recorded(address), false, 'the deleted message is forgotten');
  assert.ok(await recorded(kept), 'a message still in the history is kept');
  const texts = await heldTexts();
  assert.ok(!texts.some((text) => text.includes('12 Elm St')), 'no chunk or part holds its text');
  assert.ok(texts.some((text) => text.includes('the ferry leaves at nine')));
  assert.ok(texts.some((text) => text.includes('the cafe moved')));
}

describe('a message deleted on Discord while no replica held the gateway is forgotten after takeover', () => {
  test('SQLite: two connections to one journal file', { timeout: 30_000 }, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'mp-discord-gap-delete-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    await forgetAcrossGap(async () => openSqliteJournal(dir), t);
  });

  test('Postgres: two pools to one database', { timeout: 60_000, skip: skipWithoutPostgres }, async (t) => {
    const server = await startPostgres();
    t.after(() => server.stop());
    const url = await server.createDatabase('discord_gap_delete');
    await forgetAcrossGap(() => openPostgresJournal(url), t);
  });
});
