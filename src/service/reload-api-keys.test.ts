/**
 * @module The reload's decisions without a file: a config that removes every key is refused while serve
 * listens beyond loopback (as start-up refuses it); changes to other sections are named, not applied.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { LiveApiKeys } from '../auth/live-api-keys.js';
import type { MemoryPoolConfig } from '../config/config-types.js';
import { testBot } from '../config/test-support/test-bot.js';
import { discordKey, readerKey } from '../http/test-support/test-api-keys.js';
import { createLogger } from '../logging/logger.js';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import { createConfigReloader } from './reload-api-keys.js';

const base: MemoryPoolConfig = {
  listen: { host: '0.0.0.0', port: 3102 },
  store: { kind: 'qdrant', url: 'http://127.0.0.1:6333' },
  embedding: { provider: 'hashing', dimensions: 16 },
  dataDir: '/tmp/unused',
  apiKeys: [discordKey, readerKey],
  limits: { maxBodyBytes: 1_048_576, maxMessagesPerSave: 500, maxTextChars: 16_000 },
  readiness: { timeoutMs: 2000, embedderCacheMs: 5000 },
  bots: { mythos: testBot('mythos') },
};

/** A reloader over `running` whose file now reads as `next`; `lines` collects what it logged. */
function reloaderOf(running: MemoryPoolConfig, next: () => MemoryPoolConfig) {
  const lines: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const apiKeys = new LiveApiKeys(running.apiKeys);
  const metrics = createServiceMetrics(() => ({ pendingMessages: 0, plannedChunks: 0 }), {
    processMetrics: false,
  });
  const reload = createConfigReloader({
    load: next,
    running,
    apiKeys,
    metrics,
    logger: createLogger({ level: 'info', format: 'json', destination: stream }),
    label: '/etc/memory-pool.yaml',
  });
  return { reload, apiKeys, lines, metrics };
}

test('removing every key is refused while serve listens beyond loopback, even if the file moves to loopback', () => {
  const { reload, apiKeys, lines } = reloaderOf(base, () => ({
    ...base,
    listen: { host: '127.0.0.1', port: 3102 },
    apiKeys: [],
  }));
  assert.equal(reload(), 'refused');
  assert.deepEqual(apiKeys.current.keys, [discordKey, readerKey]);
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /apiKeys is empty, but serve listens on \\"0\.0\.0\.0\\"/);
});

test('on loopback, removing every key applies (the loopback guard takes over)', () => {
  const running = { ...base, listen: { host: '127.0.0.1', port: 3102 } };
  const { reload, apiKeys } = reloaderOf(running, () => ({ ...running, apiKeys: [] }));
  assert.equal(reload(), 'applied');
  assert.deepEqual(apiKeys.current.keys, []);
});

test('other sections that changed are named as needing a restart; the keys apply anyway', async () => {
  const { reload, apiKeys, lines, metrics } = reloaderOf(base, () => ({
    ...base,
    listen: { host: '0.0.0.0', port: 4000 },
    bots: { mythos: testBot('mythos'), other: testBot('other') },
    apiKeys: [readerKey],
  }));
  assert.equal(reload(), 'applied');
  assert.deepEqual(apiKeys.current.keys, [readerKey]);
  const restart = lines.find((line) => line.includes('restart'));
  assert.match(restart ?? '', /config changed bots, listen: not applied until serve restarts/);
  assert.equal(reload(), 'unchanged');
  const text = await metrics.registry.metrics();
  assert.match(text, /memory_pool_config_reloads_total\{outcome="applied"\} 1/);
  assert.match(text, /memory_pool_config_reloads_total\{outcome="unchanged"\} 1/);
});

test('a config that cannot be loaded keeps the keys and logs its problems on one line', () => {
  const { reload, apiKeys, lines } = reloaderOf(base, () => {
    throw new Error('invalid config (/etc/memory-pool.yaml): 2 problems\n  - a: bad\n  - b: worse');
  });
  assert.equal(reload(), 'refused');
  assert.deepEqual(apiKeys.current.keys, [discordKey, readerKey]);
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /2 problems; a: bad; b: worse/);
});

test('a widening applies only once the file has stood still a whole poll since the read held', () => {
  const wider: MemoryPoolConfig = {
    ...base,
    apiKeys: [discordKey, { ...readerKey, scopes: ['retrieve', 'save'] }],
  };
  let clock = 0;
  let stamp = 'ino:100:1';
  const apiKeys = new LiveApiKeys(base.apiKeys);
  const reload = createConfigReloader({
    load: () => wider,
    running: base,
    apiKeys,
    metrics: createServiceMetrics(() => ({ pendingMessages: 0, plannedChunks: 0 }), {
      processMetrics: false,
    }),
    logger: createLogger({ level: 'silent' }),
    label: '/etc/memory-pool.yaml',
    settle: { statFile: () => stamp, settleMs: 1000, now: () => clock },
  });
  assert.equal(reload(), 'held');
  clock = 10; // a SIGHUP ms later reads the same bytes: not applied
  assert.equal(reload(), 'held');
  clock = 1000; // a poll later, but the file was written again meanwhile: the wait starts over
  stamp = 'ino:100:2';
  assert.equal(reload(), 'held');
  clock = 1500;
  assert.equal(reload(), 'held');
  assert.deepEqual(apiKeys.current.keys, base.apiKeys);
  clock = 2000; // the same file for a whole poll since that read
  assert.equal(reload(), 'applied');
  assert.deepEqual(apiKeys.current.keys, wider.apiKeys);
});
