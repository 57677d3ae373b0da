/**
 * @module A start that assembly refuses leaves nothing running: the recorded models are checked before any
 * background work (the timeline indexes, the sweep of deleted collections' parts) is started, since a
 * failed start never reaches the closer that would wait for it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { MemoryPoolConfig } from '../config/config-types.js';
import { testBot } from '../config/test-support/test-bot.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { ConfigError } from '../errors/memory-pool-error.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { createLogger } from '../logging/logger.js';
import { createMemoryPointStore } from '../store/test-support/memory-point-store.js';
import { assembleService } from './assemble-service.js';

test('a recorded model that cannot be read stops assembly before it asks the store anything', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-assemble-'));
  const journal = openSqliteJournal(dir);
  t.after(async () => {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  });
  // A reembed recorded a model whose key names a variable this process does not have (MEMORY_POOL_ names are
  // never read from the environment for it), then switched the bot to it.
  const embedding = JSON.stringify({
    provider: 'openai',
    model: 'text-embedding-3-small',
    apiKey: ['$', '{MEMORY_POOL_UNSET}'].join(''),
  });
  await journal.routes.beginReembed('mem_mythos', 'mem_mythos', 'mem_mythos_v2', embedding, 1);
  await journal.routes.switchTo('mem_mythos', 'mem_mythos_v2', 2);
  const store = createMemoryPointStore();
  const asked: string[] = [];
  const describeCollection = store.describeCollection.bind(store);
  const listCollections = store.listCollections.bind(store);
  store.describeCollection = (name) => {
    asked.push(`describe ${name}`);
    return describeCollection(name);
  };
  store.listCollections = () => {
    asked.push('list');
    return listCollections();
  };
  const config = {
    embedding: { provider: 'hashing', dimensions: 16 },
    bots: { mythos: testBot('mythos') },
  } as unknown as MemoryPoolConfig;
  await assert.rejects(
    () =>
      assembleService({
        config,
        store,
        journal,
        embedder: new HashingEmbedder({ dimensions: 16 }),
        logger: createLogger({ level: 'silent' }),
        processMetrics: false,
      }),
    ConfigError,
  );
  assert.deepEqual(asked, [], 'no background work was started');
});

test('serve’s start describes each collection once to ask for its payload indexes, and asks for each index', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-assemble-'));
  const journal = openSqliteJournal(dir);
  t.after(async () => {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const store = createMemoryPointStore();
  // Two bot collections another app created (no payload index yet); no parts collection exists.
  await store.createCollection('mem_mythos', 16);
  await store.createCollection('mem_st', 16);
  const described: string[] = [];
  const requested: string[] = [];
  const describeCollection = store.describeCollection.bind(store);
  store.describeCollection = (name) => {
    described.push(name);
    return describeCollection(name);
  };
  store.requestFloatIndex = async (name, key) => void requested.push(`${name} ${key} float`);
  store.requestKeywordIndex = async (name, key) => void requested.push(`${name} ${key} keyword`);
  const config = {
    embedding: { provider: 'hashing', dimensions: 16 },
    readiness: { timeoutMs: 2000, embedderCacheMs: 5000 },
    apiKeys: [],
    bots: { mythos: testBot('mythos'), st: testBot('st', { collection: 'mem_st' }) },
  } as unknown as MemoryPoolConfig;
  const service = await assembleService({
    config,
    store,
    journal,
    embedder: new HashingEmbedder({ dimensions: 16 }),
    logger: createLogger({ level: 'silent' }),
    processMetrics: false,
  });
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
