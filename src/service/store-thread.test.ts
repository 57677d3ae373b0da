import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, describe, test } from 'node:test';
import type { MemoryPoolConfig } from '../config/config-types.js';
import { TEST_DIMENSIONS, testBot } from '../config/test-support/test-bot.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { createLogger } from '../logging/logger.js';
import { startStoreThread } from '../qdrant-server/thread/start-store-thread.js';
import { startMemoryService } from './start-memory-service.js';

/** The store thread that blocks or crashes on cue (files in its data folder). */
const CUED = new URL('../qdrant-server/thread/test-support/cued-store-entry.ts', import.meta.url);
const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function startCuedService(onStopped?: (error: Error) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-store-thread-'));
  dirs.push(dir);
  const lines: Record<string, unknown>[] = [];
  const logs = new PassThrough();
  logs.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
  });
  const config: MemoryPoolConfig = {
    listen: { host: '127.0.0.1', port: 0 },
    store: { kind: 'embedded', path: join(dir, 'qdrant'), host: '127.0.0.1', port: 0 },
    embedding: { provider: 'hashing', dimensions: TEST_DIMENSIONS },
    dataDir: join(dir, 'service'),
    apiKeys: [],
    limits: { maxBodyBytes: 1_048_576, maxMessagesPerSave: 500, maxTextChars: 16_000 },
    readiness: { timeoutMs: 2000, embedderCacheMs: 5000 },
    bots: { mythos: testBot('mythos') },
  };
  const service = await startMemoryService({
    config,
    embedder: new HashingEmbedder({ dimensions: TEST_DIMENSIONS }),
    logger: createLogger({ format: 'json', level: 'info', destination: logs }),
    startStore: (options) => startStoreThread({ ...options, entry: CUED }),
    ...(onStopped === undefined ? {} : { onStopped }),
  });
  const cue = (name: string) => writeFileSync(join(dir, 'qdrant', name), '');
  const cued = (name: string) => existsSync(join(dir, 'qdrant', name));
  return { service, cue, cued, lines };
}

/** Waits for `check` (a test that never sees it fails after a minute instead of hanging). */
async function until(check: () => boolean, what = 'the expected state'): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`never saw ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const message = (id: string) => ({
  speaker_kind: 'user',
  speaker_name: 'Helen',
  text: `note ${id}`,
  message_id: id,
  ts: Date.UTC(2026, 0, 5, 12),
});

describe('memory-pool serve with the embedded store on its own thread', () => {
  test('answers /health and /save while the store thread is held in a long operation', async () => {
    const { service, cue, cued } = await startCuedService();
    try {
      cue('block');
      await until(() => cued('blocked'));
      // On one thread these would wait for the store: nothing on it runs until the release.
      const health = await fetch(`${service.url}/health`);
      assert.equal(health.status, 200);
      const saved = await fetch(`${service.url}/save`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ bot: 'mythos', source: 'test', messages: [message('s1')] }),
      });
      assert.equal(saved.status, 200, 'the journal acknowledges while the store is busy');
      const store = fetch(`${service.storeUrl}/collections`);
      cue('release');
      assert.equal((await store).status, 200, 'the store answers once it is free');
    } finally {
      await service.close();
    }
  });

  test('a crash of the store thread is logged and stops the service, which says so to its caller', async () => {
    const stopped: Error[] = [];
    const { service, cue, lines } = await startCuedService((error) => stopped.push(error));
    cue('crash');
    await until(() => stopped.length > 0, 'the service stop after the crash');
    assert.match(stopped[0]!.message, /crashed on cue/);
    const died = (line: Record<string, unknown>) =>
      String(line.msg).includes("the embedded store's thread stopped unexpectedly");
    // The logger writes asynchronously: the line may arrive just after onStopped.
    await until(() => lines.some(died), `the log line (logged: ${JSON.stringify(lines.map((l) => l.msg))})`);
    const logged = lines.find(died)!;
    assert.equal(logged.level, 50);
    assert.match(String((logged.err as { message: string }).message), /crashed on cue/);
    await assert.rejects(fetch(`${service.url}/health`), 'the service no longer listens');
    await service.close();
  });
});
