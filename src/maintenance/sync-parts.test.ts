import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { QdrantClient } from '@qdrant/js-client-rest';
import { startServiceWithMemories } from '../cli/commands/test-support/data-tool-fixture.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { partsCollectionName } from '../parts/parts-collection-name.js';
import type { TestService } from '../service/test-support/start-test-service.js';
import { createQdrantPointStore } from '../store/qdrant/qdrant-point-store.js';
import { reembedTargetName } from './reembed-target.js';
import { syncParts } from './sync-parts.js';

let service: TestService;
let collection: string;
let journal: Journal;

before(async () => {
  ({ service, collection } = await startServiceWithMemories());
  journal = openSqliteJournal(service.config.dataDir);
});
after(async () => {
  await journal.close();
  await service.close();
});

test('the parts pass says how many chunks of bots no longer configured it left without parts', async () => {
  const { apiKey } = service.config.store;
  const store = createQdrantPointStore({ url: service.storeUrl!, ...(apiKey ? { apiKey } : {}) });
  const embedder = new HashingEmbedder({ dimensions: 32 });
  const stored = (await journal.chunks.storedChunks('mythos')).filter(
    (c) => c.collection === collection,
  ).length;
  assert.ok(stored > 0);
  const request = {
    configured: collection,
    from: collection,
    to: reembedTargetName(collection, embedder.model, 32),
  };
  // mythos configured: every chunk is built, none left out.
  const configured = await syncParts(
    { store, journal, embedder, bots: service.config.bots },
    { ...request, dryRun: true },
  );
  assert.equal(configured.chunks, stored);
  assert.equal(configured.unconfigured, 0);
  // mythos removed from the config: its chunks are not built, and the result says so.
  const removed = await syncParts({ store, journal, embedder, bots: {} }, { ...request, dryRun: true });
  assert.equal(removed.chunks, 0);
  assert.equal(removed.unconfigured, stored);
});

test('a rollback target keeps no part of a message forgotten since, when its bot is no longer configured', async () => {
  const { apiKey } = service.config.store;
  const store = createQdrantPointStore({ url: service.storeUrl!, ...(apiKey ? { apiKey } : {}) });
  const embedder = new HashingEmbedder({ dimensions: 32 });
  const client = new QdrantClient({
    url: service.storeUrl!,
    ...(apiKey ? { apiKey } : {}),
    checkCompatibility: false,
  });
  const to = reembedTargetName(collection, embedder.model, 32);
  const request = { configured: collection, from: collection, to, dryRun: false };
  const holding = async (messageId: string) =>
    (await client.scroll(partsCollectionName(to), { limit: 1000, with_payload: true })).points.filter((p) =>
      String(p.payload!.messageIds).split(',').includes(messageId),
    );
  // A collection switched away from keeps its parts as they were, and receives no forgets until a rollback.
  await syncParts({ store, journal, embedder, bots: service.config.bots }, request);
  assert.ok((await holding('h1')).length > 0, 'the target holds parts of h1');
  assert.equal((await service.post('/forget', { bot: 'mythos', message_ids: ['h1'] })).status, 200);
  await service.writer.runOnce({ flush: true });
  assert.ok((await holding('h1')).length > 0, 'the target was not told of the forget');
  // The rollback's parts pass, with mythos since removed from the config: its chunks' parts cannot be rebuilt.
  const result = await syncParts({ store, journal, embedder, bots: {} }, request);
  assert.ok(result.unconfigured > 0);
  assert.deepEqual(
    (await holding('h1')).map((p) => p.payload!.text),
    [],
    'no part of the target holds the forgotten message',
  );
});
