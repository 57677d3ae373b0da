/**
 * @module The assembled service over a given journal, for people tests that must run on both journal backends
 * (the in-process app, the in-memory store, the hashing embedder; the chunk writer is flushed by the test, the
 * rename runner runs as in production), and the two describe blocks that run a test set on SQLite and Postgres.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BotConfig, MemoryPoolConfig } from '../../config/config-types.js';
import { assembleService } from '../../core/assemble-service.js';
import { HashingEmbedder } from '../../embedding/hashing/hashing-embedder.js';
import { createServiceApp } from '../../http/service-app.js';
import type { Journal } from '../../journal/journal.js';
import { openPostgresJournal } from '../../journal/postgres/postgres-journal.js';
import { openSqliteJournal } from '../../journal/sqlite/sqlite-journal.js';
import {
  skipWithoutPostgres,
  startPostgres,
  type TestPostgres,
} from '../../journal/test-support/start-postgres.js';
import { createLogger } from '../../logging/logger.js';
import { createMemoryPointStore } from '../../store/test-support/memory-point-store.js';

/** Starts the service (no API keys: every call is the owner's) for `bot` over `journal`. */
export async function startPeopleService(journal: Journal, dataDir: string, bot: BotConfig) {
  const config: MemoryPoolConfig = {
    listen: { host: '127.0.0.1', port: 0 },
    store: { kind: 'qdrant', url: 'http://127.0.0.1:6333' },
    embedding: { provider: 'hashing', dimensions: 16 },
    dataDir,
    apiKeys: [],
    limits: { maxBodyBytes: 1_048_576, maxMessagesPerSave: 500, maxTextChars: 16_000 },
    readiness: { timeoutMs: 2000, embedderCacheMs: 5000 },
    bots: { [bot.name]: bot },
  };
  const store = createMemoryPointStore();
  const service = await assembleService({
    config,
    store,
    journal,
    embedder: new HashingEmbedder({ dimensions: 16 }),
    logger: createLogger({ level: 'silent' }),
    processMetrics: false,
  });
  const app = createServiceApp(service.deps);
  /** A call that must succeed (2xx); answers its JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
  const call = async (method: string, path: string, body?: unknown): Promise<any> => {
    const response = await app.request(path, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    assert.ok(response.status < 300, `${method} ${path}: ${response.status}`);
    return response.json();
  };
  /** Waits for the rename pass to queue what a change touched, then rewrites it. */
  const finishRenames = async (): Promise<void> => {
    for (let tries = 0; tries < 200; tries++) {
      if ((await journal.renames.progress()).every((bot) => bot.accountsWaiting === 0)) break;
      await sleep(50);
    }
    await service.writer.runOnce({ flush: true });
    assert.deepEqual(await journal.renames.progress(), [], 'every rename done');
  };
  return { service, store, call, finishRenames };
}

export type PeopleService = Awaited<ReturnType<typeof startPeopleService>>;

/** Runs `define` (tests that open a journal, given its folder) on SQLite, and on Postgres when available. */
export function describeOnBothJournals(
  name: string,
  define: (open: () => Promise<Journal>, dataDir: () => string) => void,
): void {
  describe(`${name}: SQLite`, () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'memory-pool-people-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));
    define(
      async () => openSqliteJournal(mkdtempSync(join(dir, 'journal-'))),
      () => dir,
    );
  });
  describe(`${name}: Postgres`, { skip: skipWithoutPostgres }, () => {
    let server: TestPostgres;
    let dir: string;
    let databases = 0;
    before(async () => {
      server = await startPostgres();
      dir = mkdtempSync(join(tmpdir(), 'memory-pool-people-'));
    });
    after(async () => {
      await server?.stop();
      rmSync(dir, { recursive: true, force: true });
    });
    define(
      async () => openPostgresJournal(await server.createDatabase(`people_${++databases}`)),
      () => dir,
    );
  });
}
