/**
 * @module What assembly asks of the store at start: a start it refuses leaves nothing running (the recorded models
 * are checked before any background work, the payload indexes and the sweep of deleted collections' parts, is
 * started, since a failed start never reaches the closer that would wait for it); a start it accepts describes each
 * collection once to ask for the payload indexes it lacks.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BotConfig } from '../config/config-types.js';
import { testBot } from '../config/test-support/test-bot.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { ConfigError } from '../errors/memory-pool-error.js';
import { createFakeServiceConfig } from '../http/test-support/fake-service-deps.js';
import { useTempJournal } from '../journal/test-support/temp-journal.js';
import { createLogger } from '../logging/logger.js';
import { createMemoryPointStore, type MemoryPointStore } from '../store/test-support/memory-point-store.js';
import { assembleService } from './assemble-service.js';

const temp = useTempJournal();

/** Assembles the service for `bots` over this test's journal and `store`. */
const assembleOver = (store: MemoryPointStore, bots: readonly BotConfig[]) =>
  assembleService({
    config: createFakeServiceConfig(temp.dir, bots),
    store,
    journal: temp.journal,
    embedder: new HashingEmbedder({ dimensions: 16 }),
    logger: createLogger({ level: 'silent' }),
    processMetrics: false,
  });

/** The store's describe calls, by collection, in the order made. */
function recordDescribes(store: MemoryPointStore): string[] {
  const described: string[] = [];
  const describeCollection = store.describeCollection.bind(store);
  store.describeCollection = (name) => {
    described.push(name);
    return describeCollection(name);
  };
  return described;
}

test('a recorded model that cannot be read stops assembly before it asks the store anything', async () => {
  // A reembed recorded a model whose key names a variable this process does not have (MEMORY_POOL_ names are
  // never read from the environment for it), then switched the bot to it.
  const embedding = JSON.stringify({
    provider: 'openai',
    model: 'text-embedding-3-small',
    apiKey: ['$', '{MEMORY_POOL_UNSET}'].join(''),
  });
  await temp.journal.routes.beginReembed('mem_mythos', 'mem_mythos', 'mem_mythos_v2', embedding, 1);
  await temp.journal.routes.switchTo('mem_mythos', 'mem_mythos_v2', 2);
  const store = createMemoryPointStore();
  const asked = recordDescribes(store);
  const listCollections = store.listCollections.bind(store);
  store.listCollections = () => {
    asked.push('(list)');
    return listCollections();
  };
  await assert.rejects(() => assembleOver(store, [testBot('mythos')]), ConfigError);
  assert.deepEqual(asked, [], 'no background work was started');
});

test('serve’s start describes each collection once to ask for its payload indexes, and asks for each index', async () => {
  const store = createMemoryPointStore();
  // Two bot collections another app created (no payload index yet); no parts collection exists.
  await store.createCollection('mem_mythos', 16);
  await store.createCollection('mem_st', 16);
  const described = recordDescribes(store);
  const requested: string[] = [];
  store.requestFloatIndex = async (name, key) => void requested.push(`${name} ${key} float`);
  store.requestKeywordIndex = async (name, key) => void requested.push(`${name} ${key} keyword`);
  const service = await assembleOver(store, [testBot('mythos'), testBot('st', { collection: 'mem_st' })]);
  // close() waits for the start's background work (the indexes, the sweep of deleted collections' parts).
  await service.close();
  // Nothing else at start reads a bot collection whose parts collection is missing: one description each.
  for (const collection of ['mem_mythos', 'mem_st']) {
    assert.equal(described.filter((name) => name === collection).length, 1, `${collection} described once`);
  }
  assert.deepEqual(requested.sort(), [
    'mem_mythos dmWith keyword',
    'mem_mythos source keyword',
    'mem_mythos timestamp float',
    'mem_st dmWith keyword',
    'mem_st source keyword',
    'mem_st timestamp float',
  ]);
});
