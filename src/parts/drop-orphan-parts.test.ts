import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { QdrantClient } from '@qdrant/js-client-rest';
import { testBot } from '../config/test-support/test-bot.js';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';
import { partsCollectionName } from './parts-collection-name.js';

const DAY = Date.UTC(2026, 11, 1, 12);
const COLLECTION = 'mem_mythos';
const PARTS = partsCollectionName(COLLECTION);

const messages = (prefix: string) => [
  {
    speaker_kind: 'user',
    text: `My diary secret ${prefix}: Anna lives in Lisbon`,
    message_id: `${prefix}1`,
    ts: DAY,
  },
  { speaker_kind: 'self', text: 'Lisbon is sunny', message_id: `${prefix}2`, ts: DAY + 1000 },
];

/** A service whose collection holds one chunk with its parts, and a client on its store. */
async function serviceWithParts(dir?: string) {
  const service = await startTestService({ bots: [testBot('mythos')], ...(dir ? { dir } : {}) });
  const client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
  const saved = await service.post('/save', { bot: 'mythos', source: 'discord', messages: messages('a') });
  assert.equal(saved.status, 200, JSON.stringify(saved.json));
  await service.writer.runOnce({ flush: true });
  assert.ok((await client.count(PARTS)).count > 0, 'the chunk has parts');
  return { service, client };
}

const exists = async (client: QdrantClient, name: string) => (await client.collectionExists(name)).exists;

test('recall that finds the collection deleted (SillyTavern "Delete All Memories") deletes its parts', async () => {
  const { service, client } = await serviceWithParts();
  try {
    await client.deleteCollection(COLLECTION);
    const recalled = await service.post('/retrieve', { bot: 'mythos', query_text: 'Where does Anna live?' });
    assert.equal(recalled.status, 200);
    assert.deepEqual(recalled.json.hits, []);
    // Recall answers before the delete ends (it does not wait for it): look for 10 s at most.
    for (let i = 0; i < 500 && (await exists(client, PARTS)); i++) await sleep(20);
    assert.equal(await exists(client, PARTS), false, 'no part keeps the deleted text');
  } finally {
    await service.close();
  }
});

test('a write that finds the collection deleted deletes its parts (the write is tried again later)', async () => {
  const { service, client } = await serviceWithParts();
  try {
    await client.deleteCollection(COLLECTION);
    await service.post('/save', { bot: 'mythos', source: 'discord', messages: messages('b') });
    await service.writer.runOnce({ flush: true });
    const left = (await exists(client, PARTS))
      ? (await client.scroll(PARTS, { limit: 100, with_payload: true })).points
      : [];
    assert.ok(
      left.every((part) => !String(part.payload?.text).includes('secret a')),
      'no part keeps the deleted text',
    );
  } finally {
    await service.close();
  }
});

test('serve deletes at start-up the parts of a collection deleted while it was stopped', async () => {
  const first = await serviceWithParts();
  await first.client.deleteCollection(COLLECTION);
  await first.service.stop();
  let second: TestService | undefined;
  try {
    second = await startTestService({ bots: [testBot('mythos')], dir: first.service.dir });
    const client = new QdrantClient({ url: second.storeUrl!, checkCompatibility: false });
    // Start-up does not wait for the store: look until the parts are gone, for 10 s at most.
    for (let i = 0; i < 500 && (await exists(client, PARTS)); i++) await sleep(20);
    assert.equal(await exists(client, PARTS), false);
  } finally {
    await second?.close();
  }
});

test('serve deletes at start-up the parts of chunks whose collection another client deleted and created again', async () => {
  const first = await serviceWithParts();
  try {
    await first.client.deleteCollection(COLLECTION);
    // st-qdrant-memory's next save creates the collection again, with its own point only.
    await first.client.createCollection(COLLECTION, { vectors: { size: 64, distance: 'Cosine' } });
    await first.client.upsert(COLLECTION, {
      wait: true,
      points: [
        {
          id: '11111111-1111-4111-8111-111111111111',
          vector: new Array(64).fill(0.1),
          payload: { text: 'new', isChunk: true },
        },
      ],
    });
    // A later save of memory-pool's: its chunk is in the collection, its parts stay.
    await first.service.post('/save', { bot: 'mythos', source: 'discord', messages: messages('b') });
    await first.service.writer.runOnce({ flush: true });
    await first.service.stop();
  } catch (error) {
    await first.service.close();
    throw error;
  }
  let second: TestService | undefined;
  try {
    second = await startTestService({ bots: [testBot('mythos')], dir: first.service.dir });
    const client = new QdrantClient({ url: second.storeUrl!, checkCompatibility: false });
    const texts = async () =>
      (await client.scroll(PARTS, { limit: 100, with_payload: true })).points.map((p) =>
        String(p.payload?.text),
      );
    // Start-up does not wait for the clean-up: look for 10 s at most.
    for (let i = 0; i < 500 && (await texts()).some((t) => t.includes('secret a')); i++) await sleep(20);
    const left = await texts();
    assert.deepEqual(
      left.filter((t) => t.includes('secret a')),
      [],
      'no part keeps the deleted text',
    );
    assert.ok(
      left.some((t) => t.includes('secret b')),
      'the parts of chunks still there stay',
    );
  } finally {
    await second?.close();
  }
});

test('hybrid recall that meets parts of chunks gone from a re-created collection deletes those parts', async () => {
  const { service, client } = await serviceWithParts();
  try {
    await client.deleteCollection(COLLECTION);
    await client.createCollection(COLLECTION, { vectors: { size: 64, distance: 'Cosine' } });
    const recalled = await service.post('/retrieve', { bot: 'mythos', query_text: 'Where does Anna live?' });
    assert.equal(recalled.status, 200);
    assert.deepEqual(recalled.json.hits, []);
    const secret = async () =>
      (await client.scroll(PARTS, { limit: 100, with_payload: true })).points.filter((p) =>
        String(p.payload?.text).includes('secret a'),
      ).length;
    // Recall does not wait for the clean-up: look for 10 s at most.
    for (let i = 0; i < 500 && (await secret()) > 0; i++) await sleep(20);
    assert.equal(await secret(), 0, 'no part keeps the deleted text');
  } finally {
    await service.close();
  }
});
