/**
 * @module A rollback's parts pass and a bot removed from the config: the collection switched back to kept the
 * parts it had before the switch, and the parts pass rebuilds only the configured bots' chunks, so a message
 * of the removed bot's, forgotten after the switch, must not stay in them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runReembed } from '../cli/commands/reembed-command.js';
import { captureOutput, writeDataToolConfig } from '../cli/commands/test-support/data-tool-fixture.js';
import { TEST_DIMENSIONS, testBot } from '../config/test-support/test-bot.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { partsCollectionName } from '../parts/parts-collection-name.js';
import { restartTestService, storeClientOf } from '../service/test-support/start-service-on-test-store.js';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';
import { createQdrantPointStore } from '../store/qdrant/qdrant-point-store.js';
import { createQdrantStoreAdmin } from '../store/qdrant/qdrant-store-admin.js';
import { reembedCollection } from './reembed-collection.js';

const SHARED = 'mem_shared';
const DAY = Date.UTC(2026, 10, 5);
const messages = (prefix: string, texts: readonly string[]) =>
  texts.map((text, i) => ({
    speaker_kind: i % 2 === 0 ? 'user' : 'self',
    text,
    message_id: `${prefix}${i}`,
    channel_id: `c-${prefix}`,
    ts: DAY + i * 60_000,
  }));

test('after --rollback, no part of the collection switched back to holds a message forgotten since, of a bot since removed', async () => {
  const bots = [testBot('mythos', { collection: SHARED }), testBot('other', { collection: SHARED })];
  const service = await startTestService({ bots });
  let live: TestService = service;
  const journal = openSqliteJournal(service.config.dataDir);
  try {
    const save = async (bot: string, prefix: string, texts: readonly string[]) => {
      const saved = await live.post('/save', { bot, source: 'discord', messages: messages(prefix, texts) });
      assert.equal(saved.status, 200, JSON.stringify(saved.json));
    };
    await save('mythos', 'm', ['Anna teaches piano in Lisbon', 'Lisbon has good pianos']);
    await save('other', 'o', ['My safe code is 7319', 'Safe code 7319, noted']);
    await service.writer.runOnce({ flush: true });
    // The build into a new collection (the same model), with both bots configured, then the switch.
    const { apiKey } = service.config.store;
    const options = { url: service.storeUrl!, ...(apiKey ? { apiKey } : {}) };
    const built = await reembedCollection(
      {
        store: createQdrantPointStore(options),
        admin: createQdrantStoreAdmin(options),
        journal,
        embedder: new HashingEmbedder({ dimensions: TEST_DIMENSIONS }),
        embedding: `{"provider":"hashing","dimensions":${TEST_DIMENSIONS}}`,
        bots: service.config.bots,
      },
      { bot: service.config.bots.mythos!, action: 'build', dryRun: false, serveRunning: true, rebuild: true },
    );
    assert.equal(built.switched, true, built.pending);
    // After the switch the old collection receives no forgets: its parts keep the message.
    assert.equal((await live.post('/forget', { bot: 'other', message_ids: ['o0'] })).status, 200);
    await live.writer.runOnce({ flush: true });
    const holding = async (messageId: string) =>
      (
        await storeClientOf(live).scroll(partsCollectionName(SHARED), { limit: 1000, with_payload: true })
      ).points.filter((p) => String(p.payload!.messageIds).split(',').includes(messageId));
    assert.ok((await holding('o0')).length > 0, 'the old collection still holds parts of o0');
    // `other` is removed from the config; the rollback runs with serve stopped.
    const config = await writeDataToolConfig(service.dir, 'rollback', { service });
    await live.stop();
    const io = captureOutput();
    const code = await runReembed({ bot: 'mythos', config, json: true, rollback: true }, io);
    const { out, err } = io.text();
    assert.equal(code, 0, err);
    assert.ok(JSON.parse(out).parts.unconfigured > 0, 'the rollback says which chunks it left without parts');
    live = await restartTestService(service);
    assert.deepEqual(
      (await holding('o0')).map((p) => p.payload!.text),
      [],
      'no part holds the forgotten message',
    );
    assert.ok((await holding('m0')).length > 0, 'the configured bot keeps its parts');
  } finally {
    await journal.close();
    if (live !== service) await live.stop();
    await service.close();
  }
});
