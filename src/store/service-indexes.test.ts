/**
 * @module The service's payload indexes in the embedded store, through the service as it runs: `dmWith` as a keyword on a
 * collection and its parts collection when first written, and on a collection another app created at the next start;
 * the parts' `timestamp` as a float when created, and at the next start when a folder from before lacks it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { QdrantClient } from '@qdrant/js-client-rest';
import { TEST_DIMENSIONS, testBot } from '../config/test-support/test-bot.js';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';
import type { CollectionShape } from './point-store.js';
import { CHUNKS_INDEXES, type IndexFailed, prepareServiceIndexes } from './service-indexes.js';

/** The index types of `collection`, once `key` shows (the indexes are asked for without waiting). */
async function indexesOf(client: QdrantClient, collection: string, key = 'dmWith'): Promise<Record<string, unknown>> {
  let schema: Record<string, { data_type?: string }> = {};
  for (let tries = 0; tries < 50; tries++) {
    schema = ((await client.getCollection(collection)).payload_schema ?? {}) as typeof schema;
    if (schema[key] !== undefined) break;
    await sleep(20);
  }
  return Object.fromEntries(Object.entries(schema).map(([name, index]) => [name, index.data_type]));
}

test('dmWith is indexed as a keyword on written collections, their parts, and at start on others', {
  timeout: 60_000,
}, async () => {
  let service: TestService | undefined = await startTestService({ bots: [testBot('mythos')] });
  const dir = service.dir;
  try {
    const saved = await service.post('/save', {
      bot: 'mythos',
      source: 'discord',
      messages: [
        {
          message_id: 'm1',
          speaker_kind: 'user',
          discord_user_id: '1234',
          channel_id: 'dm-1',
          text: 'hello',
        },
      ],
    });
    assert.equal(saved.status, 200);
    await service.writer.runOnce({ flush: true });
    const client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
    assert.equal((await indexesOf(client, 'mem_mythos')).dmWith, 'keyword');
    assert.equal((await indexesOf(client, 'mem_mythos__parts')).dmWith, 'keyword');
    // As st-qdrant-memory creates its collections: no payload index.
    await client.createCollection('mem_st', { vectors: { size: TEST_DIMENSIONS, distance: 'Cosine' } });
    assert.equal((await client.getCollection('mem_st')).payload_schema?.dmWith, undefined);
    await service.stop();

    service = await startTestService({
      dir,
      bots: [testBot('mythos'), testBot('st', { collection: 'mem_st' })],
    });
    const again = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
    assert.equal((await indexesOf(again, 'mem_st')).dmWith, 'keyword');
  } finally {
    await service?.close();
  }
});

test('a family that fails is told once and costs only its own indexes; what a collection has is not asked again', async () => {
  const asked: string[] = [];
  const failed: string[] = [];
  const store = {
    describeCollection: async () => undefined,
    requestFloatIndex: async () => {
      throw new Error('store down');
    },
    requestKeywordIndex: async (collection: string, key: string) => void asked.push(`${collection} ${key}`),
  };
  const onError: IndexFailed = (family, collection) => failed.push(`${family} ${collection}`);
  await prepareServiceIndexes(store, 'mem_a', undefined, CHUNKS_INDEXES, onError);
  assert.deepEqual(failed, ['timeline mem_a']);
  assert.deepEqual(
    asked,
    ['mem_a dmWith'],
    'dmWith asked for though the timeline failed (source waits for it)',
  );
  const indexed: CollectionShape = {
    vectorSize: 16,
    distance: 'Cosine',
    namedVectors: [],
    pointsCount: 0,
    payloadIndexes: { timestamp: 'float', source: 'keyword', dmWith: 'keyword' },
  };
  await prepareServiceIndexes(store, 'mem_b', indexed, CHUNKS_INDEXES, onError);
  assert.equal(asked.length + failed.length, 2, 'nothing asked of a collection that has every index');
});

test('the parts are indexed by timestamp when created, and at the next start when they lack it', {
  timeout: 60_000,
}, async () => {
  let service: TestService | undefined = await startTestService({ bots: [testBot('mythos')] });
  const dir = service.dir;
  try {
    const saved = await service.post('/save', {
      bot: 'mythos',
      source: 'discord',
      messages: [
        { message_id: 'm1', speaker_kind: 'user', user_id: 'u1', channel_id: 'c1', text: 'hello there' },
      ],
    });
    assert.equal(saved.status, 200);
    await service.writer.runOnce({ flush: true });
    const client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
    assert.equal((await indexesOf(client, 'mem_mythos__parts', 'timestamp')).timestamp, 'float');
    await client.deletePayloadIndex('mem_mythos__parts', 'timestamp', { wait: true });
    await service.stop();

    service = await startTestService({ dir, bots: [testBot('mythos')] });
    const again = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
    assert.equal((await indexesOf(again, 'mem_mythos__parts', 'timestamp')).timestamp, 'float');
  } finally {
    await service?.close();
  }
});
