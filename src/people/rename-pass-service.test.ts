/**
 * @module The rename pass through the assembled service, on both journal backends: a link made just before the
 * service stops is renamed by the next start; `/ready` (200 throughout; counts only for the public, by bot for an
 * admin key) and `GET /bots/{bot}/stats` say what is left while it runs, and stop saying it once it is done.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MemoryPoolConfig } from '../config/config-types.js';
import { testBot } from '../config/test-support/test-bot.js';
import { assembleService } from '../core/assemble-service.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { createServiceApp } from '../http/service-app.js';
import { ownerKey } from '../http/test-support/test-api-keys.js';
import type { Journal } from '../journal/journal.js';
import { openPostgresJournal } from '../journal/postgres/postgres-journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import {
  skipWithoutPostgres,
  startPostgres,
  type TestPostgres,
} from '../journal/test-support/start-postgres.js';
import { createLogger } from '../logging/logger.js';
import { createMemoryPointStore, type MemoryPointStore } from '../store/test-support/memory-point-store.js';

const DAY = Date.UTC(2026, 10, 2, 9);
const HOUR = 3_600_000;

/** One start of the service over `journal` and `store` (a store outlives the service, as Qdrant does). */
async function startService(journal: Journal, store: MemoryPointStore, dataDir: string) {
  const config: MemoryPoolConfig = {
    listen: { host: '127.0.0.1', port: 0 },
    store: { kind: 'qdrant', url: 'http://127.0.0.1:6333' },
    embedding: { provider: 'hashing', dimensions: 16 },
    dataDir,
    apiKeys: [ownerKey],
    limits: { maxBodyBytes: 1_048_576, maxMessagesPerSave: 500, maxTextChars: 16_000 },
    readiness: { timeoutMs: 2000, embedderCacheMs: 5000 },
    bots: { mythos: testBot('mythos') },
  };
  const service = await assembleService({
    config,
    store,
    journal,
    embedder: new HashingEmbedder({ dimensions: 16 }),
    logger: createLogger({ level: 'silent' }),
    processMetrics: false,
  });
  const app = createServiceApp(service.deps);
  const call = async (method: string, path: string, body?: unknown, key: string | null = ownerKey.key) => {
    const response = await app.request(path, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
  return { service, call };
}

function defineServiceCases(open: () => Promise<Journal>, dataDir: () => string): void {
  test('a link made just before a stop is renamed by the next start; /ready and stats show the pass, then stop', {
    timeout: 30_000,
  }, async () => {
    const store = createMemoryPointStore();
    const first = await open();
    const a = await startService(first, store, dataDir());
    const messages = [0, 1, 2].map((i) => ({
      message_id: `d${i}`,
      speaker_kind: 'user',
      discord_user_id: '1234',
      speaker_name: 'anna_d',
      text: `lighthouse ${i}`,
      ts: DAY + i * 6 * HOUR,
      channel_id: `c${i}`,
    }));
    assert.equal((await a.call('POST', '/save', { bot: 'mythos', source: 'discord', messages })).status, 200);
    await a.service.writer.runOnce({ flush: true });
    const texts = () => store.heldPoints('mem_mythos').map((p) => String(p.payload.text));
    assert.equal(texts().filter((t) => t.includes('anna_d: ')).length, 3);
    const ready = await a.call('GET', '/ready', undefined, null);
    assert.deepEqual([ready.status, ready.json.renaming], [200, undefined], 'nothing shown with no pass');

    const linked = await a.call('POST', '/bots/mythos/people', {
      name: 'Anna',
      accounts: [{ discord_user_id: '1234' }],
    });
    assert.equal(linked.status, 201);
    // Until the pass runs, its account waits; the public reads counts only, an admin key by bot.
    const waiting = { chunksLeft: 0, accountsWaiting: 1 };
    const publicReady = await a.call('GET', '/ready', undefined, null);
    assert.deepEqual([publicReady.status, publicReady.json.renaming], [200, waiting]);
    assert.deepEqual((await a.call('GET', '/ready')).json.renaming, {
      ...waiting,
      bots: { mythos: waiting },
    });
    assert.deepEqual((await a.call('GET', '/bots/mythos/stats')).json.renaming, waiting);
    // Stopped (as a kill would) before the pass: the request stays in the journal.
    await a.service.close();
    await first.close();

    const second = await open();
    const b = await startService(second, store, dataDir());
    try {
      const queued = { chunksLeft: 3, accountsWaiting: 0 };
      for (let tries = 0; tries < 100; tries++) {
        const now = (await b.call('GET', '/ready', undefined, null)).json.renaming;
        if (JSON.stringify(now) === JSON.stringify(queued)) break;
        await sleep(50);
      }
      const during = await b.call('GET', '/ready', undefined, null);
      assert.deepEqual([during.status, during.json.ready, during.json.renaming], [200, true, queued]);
      assert.deepEqual((await b.call('GET', '/bots/mythos/stats')).json.renaming, queued);

      await b.service.writer.runOnce({ flush: true });
      assert.deepEqual(
        texts().filter((t) => t.includes('anna_d: ')),
        [],
        'every chunk rewritten',
      );
      assert.equal(texts().filter((t) => t.includes('Anna: ')).length, 3);
      const done = await b.call('GET', '/ready', undefined, null);
      assert.deepEqual([done.status, 'renaming' in done.json], [200, false]);
      assert.equal('renaming' in (await b.call('GET', '/bots/mythos/stats')).json, false);
    } finally {
      await b.service.close();
      await second.close();
    }
  });
}

describe('rename pass in the service: SQLite', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'memory-pool-rename-service-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  defineServiceCases(
    async () => openSqliteJournal(dir),
    () => dir,
  );
});

describe('rename pass in the service: Postgres', { skip: skipWithoutPostgres }, () => {
  let server: TestPostgres;
  let url: string;
  let dir: string;
  before(async () => {
    server = await startPostgres();
    url = await server.createDatabase('rename_service');
    dir = mkdtempSync(join(tmpdir(), 'memory-pool-rename-service-'));
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  defineServiceCases(
    () => openPostgresJournal(url),
    () => dir,
  );
});
