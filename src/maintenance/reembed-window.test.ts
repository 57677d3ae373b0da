import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { QdrantClient } from '@qdrant/js-client-rest';
import { startServiceWithMemories } from '../cli/commands/test-support/data-tool-fixture.js';
import { TEST_DIMENSIONS } from '../config/test-support/test-bot.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { partsCollectionName } from '../parts/parts-collection-name.js';
import type { TestService } from '../service/test-support/start-test-service.js';
import { createQdrantPointStore } from '../store/qdrant/qdrant-point-store.js';
import { createQdrantStoreAdmin } from '../store/qdrant/qdrant-store-admin.js';
import { type StoreHooks, withStoreHooks } from '../store/test-support/with-store-hooks.js';
import { reembedCollection } from './reembed-collection.js';
import { reembedTargetName } from './reembed-target.js';
import { failAfter } from './test-support/data-tool-store.js';

/** What serve and SillyTavern do while a reembed's parts pass runs (it may take minutes) reaches the switch. */
const NEW = new HashingEmbedder({ dimensions: 32 });
const EMBEDDING = '{"provider":"hashing","dimensions":32}';
/** The fixture's SillyTavern point. */
const ST_POINT = '5c56c793-69f3-4fbf-87e6-c4bf54c28c26';
const NEW_ST = '6d67d8a4-7a05-4f0f-98f7-d5c05d39d370';
const REDACTED = 'Helen: [redacted]\nMythos: it was calm';

describe('writes made during the parts pass', () => {
  let service: TestService;
  let client: QdrantClient;
  let collection: string;
  let journal: Journal;

  before(async () => {
    ({ service, client, collection } = await startServiceWithMemories());
    journal = openSqliteJournal(service.config.dataDir);
  });
  after(async () => {
    await journal.close();
    await service.close();
  });

  /** A build whose first parts upsert first runs `during` (serve and SillyTavern at work meanwhile). */
  const build = (during: () => Promise<void>) => {
    const { apiKey } = service.config.store;
    const options = { url: service.storeUrl!, ...(apiKey ? { apiKey } : {}) };
    let fired = false;
    const hooks: StoreHooks = {
      beforeCall: async (call) => {
        if (call.method !== 'upsertHybridPoints' || fired) return;
        fired = true;
        await during();
      },
    };
    return reembedCollection(
      {
        store: withStoreHooks(createQdrantPointStore(options), hooks),
        admin: createQdrantStoreAdmin(options),
        journal,
        embedder: NEW,
        embedding: EMBEDDING,
        bots: service.config.bots,
      },
      {
        bot: service.config.bots.mythos!,
        action: 'build',
        dryRun: false,
        serveRunning: true,
        settleMs: 2000,
      },
    );
  };

  test('a viewer edit and a SillyTavern write during the parts pass are in the collection switched to', async () => {
    const summary = await build(async () => {
      const put = await fetch(`${service.url}/bots/mythos/points/${ST_POINT}/text`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: REDACTED }),
      });
      assert.equal(put.status, 200, await put.text());
      await client.upsert(collection, {
        wait: true,
        points: [
          {
            id: NEW_ST,
            vector: Array.from({ length: TEST_DIMENSIONS }, (_, i) => (i % 5) / 5 - 0.3),
            payload: { text: 'Helen: a new ST memory\nMythos: noted', messageIds: 'st_9' },
          },
        ],
      });
    });
    assert.equal(summary.switched, true, summary.pending);
    const target = reembedTargetName(collection, NEW.model, 32);
    assert.equal(await journal.routes.activeCollection(collection), target);
    const [edited, added] = await Promise.all([
      client.retrieve(target, { ids: [ST_POINT], with_payload: true }),
      client.retrieve(target, { ids: [NEW_ST], with_payload: true }),
    ]);
    assert.equal(edited[0]?.payload?.text, REDACTED);
    assert.equal(added.length, 1);
    const parts = await client.scroll(partsCollectionName(target), { limit: 1000, with_payload: true });
    assert.ok(parts.points.length > 0);
  });
});

describe('a whole chunk forgotten during the parts pass', () => {
  let service: TestService;
  let client: QdrantClient;
  let collection: string;
  let journal: Journal;
  /** Enough messages for more chunks than one parts batch (32): the forgotten ones are in a later batch. */
  const ids = Array.from({ length: 90 }, (_, i) => `k${i}`);

  before(async () => {
    ({ service, client, collection } = await startServiceWithMemories());
    const messages = ids.map((id, i) => ({
      speaker_kind: i % 2 === 0 ? 'user' : 'self',
      text: `Evening ${i}: the lighthouse keeper rowed out past the harbour wall with a lantern and a net`,
      message_id: id,
      ts: Date.UTC(2026, 10, 5) + i * 60_000,
    }));
    assert.equal((await service.post('/save', { bot: 'mythos', source: 'discord', messages })).status, 200);
    await service.writer.runOnce({ flush: true });
    journal = openSqliteJournal(service.config.dataDir);
  });
  after(async () => {
    await journal.close();
    await service.close();
  });

  test('the reembed skips the chunks that left the journal and switches without their parts', async () => {
    const { apiKey } = service.config.store;
    const options = { url: service.storeUrl!, ...(apiKey ? { apiKey } : {}) };
    let fired = false;
    const summary = await reembedCollection(
      {
        store: withStoreHooks(createQdrantPointStore(options), {
          beforeCall: async (call) => {
            if (call.method !== 'upsertHybridPoints' || fired) return;
            fired = true;
            const forget = await service.post('/forget', { bot: 'mythos', message_ids: ids.slice(60) });
            assert.equal(forget.status, 200);
            await service.writer.runOnce({ flush: true });
          },
        }),
        admin: createQdrantStoreAdmin(options),
        journal,
        embedder: NEW,
        embedding: EMBEDDING,
        bots: service.config.bots,
      },
      {
        bot: service.config.bots.mythos!,
        action: 'build',
        dryRun: false,
        serveRunning: true,
        settleMs: 2000,
      },
    );
    assert.ok(fired);
    assert.equal(summary.switched, true, summary.pending);
    const target = reembedTargetName(collection, NEW.model, 32);
    const forgotten = new Set(ids.slice(60));
    const holdsForgotten = (payload: Record<string, unknown> | null | undefined) =>
      String(payload?.messageIds ?? '')
        .split(',')
        .some((id) => forgotten.has(id));
    for (const name of [target, partsCollectionName(target)]) {
      const { points } = await client.scroll(name, { limit: 1000, with_payload: true });
      assert.ok(points.length > 0, name);
      assert.deepEqual(
        points.filter((p) => holdsForgotten(p.payload)).map((p) => p.id),
        [],
        `${name} holds forgotten messages`,
      );
    }
  });
});

describe('a SillyTavern point forgotten during the chunk pass', () => {
  let service: TestService;
  let client: QdrantClient;
  let collection: string;
  let journal: Journal;

  before(async () => {
    ({ service, client, collection } = await startServiceWithMemories());
    journal = openSqliteJournal(service.config.dataDir);
  });
  after(async () => {
    await journal.close();
    await service.close();
  });

  test('forgotten by point_ids after its page was read, it does not come back in the collection switched to', async () => {
    const target = reembedTargetName(collection, NEW.model, 32);
    const { apiKey } = service.config.store;
    const options = { url: service.storeUrl!, ...(apiKey ? { apiKey } : {}) };
    let fired = false;
    const summary = await reembedCollection(
      {
        store: withStoreHooks(createQdrantPointStore(options), {
          // The page holding the point is read and embedded; the forget lands before it is written.
          beforeCall: async (call) => {
            if (call.method !== 'upsertPoints' || call.args[0] !== target || fired) return;
            fired = true;
            const forget = await service.post('/forget', {
              bot: 'mythos',
              include_unsourced: true,
              point_ids: [ST_POINT],
            });
            assert.equal(forget.status, 200);
            await service.writer.runOnce({ flush: true });
          },
        }),
        admin: createQdrantStoreAdmin(options),
        journal,
        embedder: NEW,
        embedding: EMBEDDING,
        bots: service.config.bots,
      },
      {
        bot: service.config.bots.mythos!,
        action: 'build',
        dryRun: false,
        serveRunning: true,
        settleMs: 2000,
      },
    );
    assert.ok(fired);
    assert.equal(summary.switched, true, summary.pending);
    assert.deepEqual(await client.retrieve(target, { ids: [ST_POINT] }), []);
    const recalled = await service.post('/retrieve', {
      bot: 'mythos',
      query_text: 'we talked about the sea',
    });
    assert.equal(recalled.status, 200);
    assert.ok(!JSON.stringify(recalled.json).includes('we talked about the sea'));
  });
});

describe('a viewer edit after the last pass of a reembed', () => {
  let service: TestService;
  let client: QdrantClient;
  let collection: string;
  let journal: Journal;

  before(async () => {
    ({ service, client, collection } = await startServiceWithMemories());
    journal = openSqliteJournal(service.config.dataDir);
  });
  after(async () => {
    await journal.close();
    await service.close();
  });

  test('reaches the collection being built at once, so no later switch undoes it', async () => {
    const target = reembedTargetName(collection, NEW.model, 32);
    const { apiKey } = service.config.store;
    const options = { url: service.storeUrl!, ...(apiKey ? { apiKey } : {}) };
    // The chunk passes copy the point, then the build stops: no pass runs after the edit.
    await assert.rejects(
      reembedCollection(
        {
          store: withStoreHooks(createQdrantPointStore(options), failAfter('upsertHybridPoints', 0)),
          admin: createQdrantStoreAdmin(options),
          journal,
          embedder: NEW,
          embedding: EMBEDDING,
          bots: service.config.bots,
        },
        { bot: service.config.bots.mythos!, action: 'build', dryRun: false, serveRunning: true },
      ),
    );
    assert.equal((await client.retrieve(target, { ids: [ST_POINT] })).length, 1);
    const put = await fetch(`${service.url}/bots/mythos/points/${ST_POINT}/text`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: REDACTED }),
    });
    assert.equal(put.status, 200, await put.text());
    const [copy] = await client.retrieve(target, { ids: [ST_POINT], with_payload: true, with_vector: true });
    assert.equal(copy?.payload?.text, REDACTED);
    assert.equal(
      (copy?.vector as number[] | undefined)?.length,
      32,
      'embedded with the model of the collection being built',
    );
  });
});
