import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { QdrantClient } from '@qdrant/js-client-rest';
import { runReembed } from '../cli/commands/reembed-command.js';
import {
  captureOutput,
  startServiceWithMemories,
  writeDataToolConfig,
} from '../cli/commands/test-support/data-tool-fixture.js';
import { TEST_DIMENSIONS } from '../config/test-support/test-bot.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { restartTestService, storeClientOf } from '../service/test-support/start-service-on-test-store.js';
import type { TestService } from '../service/test-support/start-test-service.js';
import { createQdrantPointStore } from '../store/qdrant/qdrant-point-store.js';
import { createQdrantStoreAdmin } from '../store/qdrant/qdrant-store-admin.js';
import { withStoreHooks } from '../store/test-support/with-store-hooks.js';
import { partsCollectionName } from '../parts/parts-collection-name.js';
import { reembedCollection } from './reembed-collection.js';
import { reembedTargetName } from './reembed-target.js';
import { failAfter } from './test-support/data-tool-store.js';

/** The reembed steps that would lose a collection in use, or leave one holding forgotten texts, are refused. */
describe('reembed refuses the steps that would lose or strand a collection', () => {
  let service: TestService;
  /** The service answering now: `service` started again on its folder after the CLI ran without it. */
  let live: TestService;
  let client: QdrantClient;
  let collection: string;
  let journal: Journal;
  let config: string;

  before(async () => {
    ({ service, client, collection } = await startServiceWithMemories());
    live = service;
    journal = openSqliteJournal(service.config.dataDir);
    config = await writeDataToolConfig(service.dir, 'x', { service });
    writeFileSync(join(service.dir, 'b.yaml'), 'embedding: { provider: hashing, dimensions: 32 }\n');
  });
  after(async () => {
    await journal.close();
    if (live !== service) await live.stop();
    await service.close();
  });

  const cli = async (extra: { to?: string; rollback?: boolean; dropOld?: boolean }) => {
    const io = captureOutput();
    const code = await runReembed({ bot: 'mythos', config, json: true, ...extra }, io);
    return { code, ...io.text() };
  };
  const collections = async () => (await client.getCollections()).collections.map((c) => c.name);

  test('--drop-old after a rollback stopped midway is refused, and the collection being rebuilt stays', async () => {
    const built = await cli({ to: join(service.dir, 'b.yaml') });
    assert.equal(built.code, 0, built.err);
    // Something new since the switch: the rollback has parts to write, and is stopped at the first.
    const message = {
      speaker_kind: 'user',
      speaker_name: 'Helen',
      text: 'We painted the fence green',
      message_id: 'y1',
    };
    const save = await live.post('/save', {
      bot: 'mythos',
      source: 'api',
      messages: [{ ...message, ts: Date.UTC(2026, 10, 8) }],
    });
    assert.equal(save.status, 200);
    await live.writer.runOnce({ flush: true });
    const { apiKey } = service.config.store;
    const options = { url: live.storeUrl!, ...(apiKey ? { apiKey } : {}) };
    await assert.rejects(
      reembedCollection(
        {
          store: withStoreHooks(createQdrantPointStore(options), failAfter('upsertHybridPoints', 0)),
          admin: createQdrantStoreAdmin(options),
          journal,
          embedder: new HashingEmbedder({ dimensions: TEST_DIMENSIONS }),
          embedding: `{"provider":"hashing","dimensions":${TEST_DIMENSIONS}}`,
          bots: service.config.bots,
        },
        { bot: service.config.bots.mythos!, action: 'rollback', dryRun: false, serveRunning: true },
      ),
    );
    assert.equal((await journal.routes.reembedOf(collection))?.target, collection);
    await live.stop();
    const dropped = await cli({ dropOld: true });
    assert.notEqual(dropped.code, 0);
    assert.match(dropped.err, /stopped before its switch.*--rollback.*then --drop-old/s);
    live = await restartTestService(service);
    client = storeClientOf(live);
    assert.ok(
      (await collections()).includes(collection),
      'the collection the rollback rebuilds is still there',
    );
    // Finishing the rollback, as the message says, and dropping then works; new saves reach the collection.
    await live.stop();
    const rolledBack = await cli({ rollback: true });
    assert.equal(rolledBack.code, 0, rolledBack.err);
    const droppedNow = await cli({ dropOld: true });
    assert.equal(droppedNow.code, 0, droppedNow.err);
    live = await restartTestService(service);
    client = storeClientOf(live);
    assert.equal(await journal.routes.activeCollection(collection), collection);
    assert.ok((await collections()).includes(collection));
    const recalled = await live.post('/retrieve', { bot: 'mythos', query_text: 'the fence we painted' });
    assert.ok(JSON.stringify(recalled.json).includes('fence green'));
  });
});

describe('a build leaves no collection behind that keeps forgotten texts', () => {
  let service: TestService;
  let live: TestService;
  let client: QdrantClient;
  let collection: string;
  let journal: Journal;
  let config: string;

  before(async () => {
    ({ service, client, collection } = await startServiceWithMemories());
    live = service;
    journal = openSqliteJournal(service.config.dataDir);
    config = await writeDataToolConfig(service.dir, 'y', { service });
    writeFileSync(join(service.dir, 'b.yaml'), 'embedding: { provider: hashing, dimensions: 32 }\n');
    writeFileSync(join(service.dir, 'c.yaml'), 'embedding: { provider: hashing, dimensions: 48 }\n');
  });
  after(async () => {
    await journal.close();
    if (live !== service) await live.stop();
    await service.close();
  });

  const cli = async (extra: { to?: string; dropOld?: boolean }) => {
    const io = captureOutput();
    const code = await runReembed({ bot: 'mythos', config, json: true, ...extra }, io);
    return { code, ...io.text() };
  };
  const restart = async () => {
    live = await restartTestService(service);
    client = storeClientOf(live);
  };
  /** A build into `dimensions` on the running serve's store, optionally stopped at its first parts write. */
  const build = (dimensions: number, options: { fail?: boolean; serveRunning: boolean }) => {
    const { apiKey } = service.config.store;
    const store = { url: live.storeUrl!, ...(apiKey ? { apiKey } : {}) };
    return reembedCollection(
      {
        store: withStoreHooks(
          createQdrantPointStore(store),
          options.fail ? failAfter('upsertHybridPoints', 0) : {},
        ),
        admin: createQdrantStoreAdmin(store),
        journal,
        embedder: new HashingEmbedder({ dimensions }),
        embedding: `{"provider":"hashing","dimensions":${dimensions}}`,
        bots: service.config.bots,
      },
      {
        bot: service.config.bots.mythos!,
        action: 'build',
        dryRun: false,
        serveRunning: options.serveRunning,
      },
    );
  };

  test('a second build waits for --drop-old of the first one’s previous collection, which kept a forgotten text', async () => {
    assert.equal((await cli({ to: join(service.dir, 'b.yaml') })).code, 0);
    assert.equal((await live.post('/forget', { bot: 'mythos', message_ids: ['d1'] })).status, 200);
    await live.writer.runOnce({ flush: true });
    const refused = await cli({ to: join(service.dir, 'c.yaml') });
    assert.notEqual(refused.code, 0);
    assert.match(refused.err, /receives no forgets.*--drop-old/s);
    await live.stop();
    assert.equal((await cli({ dropOld: true })).code, 0);
    assert.equal((await cli({ to: join(service.dir, 'c.yaml') })).code, 0);
    assert.equal((await cli({ dropOld: true })).code, 0);
    await restart();
    const names = (await client.getCollections()).collections.map((c) => c.name);
    for (const name of names) {
      const { points } = await client.scroll(name, { limit: 1000, with_payload: true });
      const d1 = points.filter((p) => String(p.payload?.text).includes('Anna lives in Lisbon'));
      assert.deepEqual(d1, [], `${name} holds forgotten d1`);
    }
  });

  test('a build stopped before its switch is finished or abandoned (with serve stopped), never left behind', async () => {
    const stranded = reembedTargetName(collection, new HashingEmbedder({ dimensions: 32 }).model, 32);
    await assert.rejects(build(32, { fail: true, serveRunning: true }));
    assert.equal((await journal.routes.reembedOf(collection))?.target, stranded);
    await assert.rejects(build(TEST_DIMENSIONS, { serveRunning: true }), /stopped before its switch/);
    const abandoned = await build(TEST_DIMENSIONS, { serveRunning: false });
    assert.equal(abandoned.switched, true, abandoned.pending);
    for (const name of [stranded, partsCollectionName(stranded)]) {
      assert.equal((await client.collectionExists(name)).exists, false, name);
    }
    assert.equal(await journal.partsIndexes.isComplete(stranded), undefined);
  });
});
