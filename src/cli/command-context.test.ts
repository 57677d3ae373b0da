/** @module The CLI's store errors quote the store's URL with its credentials (from QDRANT_URL) masked. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MemoryPoolConfig } from '../config/config-types.js';
import { testBot } from '../config/test-support/test-bot.js';
import { findFreePort } from '../runtime/find-free-port.js';
import { connectCommandStore, openDataStore } from './command-context.js';

const SECRET = 'hunter2-Secret';

test('a store that cannot be reached is named without the credentials in its URL', async () => {
  // A free port: nothing answers there.
  const url = `http://admin:${SECRET}@127.0.0.1:${await findFreePort()}/?api-key=${SECRET}`;
  const config = {
    listen: { host: '127.0.0.1', port: 0 },
    store: { kind: 'qdrant', url },
    embedding: { provider: 'hashing', dimensions: 16 },
    dataDir: '/tmp/unused',
    apiKeys: [],
    limits: { maxBodyBytes: 1_048_576, maxMessagesPerSave: 500, maxTextChars: 16_000 },
    readiness: { timeoutMs: 2000, embedderCacheMs: 5000 },
    bots: { mythos: testBot('mythos') },
  } as MemoryPoolConfig;
  for (const open of [() => openDataStore(config), () => connectCommandStore(config, 'stats')]) {
    const error = await open().then(
      () => assert.fail('the store answered'),
      (failure: Error) => failure,
    );
    assert.match(error.message, /cannot reach/);
    assert.ok(!error.message.includes(SECRET), error.message);
    assert.match(error.message, /127\.0\.0\.1/);
  }
});
