/**
 * @module The service, assembled as production assembles it (src/core/assemble-service.ts), for in-process
 * tests of the HTTP app (`app.request()`): a journal in a temporary folder, the one in-memory store, the
 * hashing embedder and a chunk writer that is not started, instead of a service listening on ports.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hono } from 'hono';
import type { BotConfig, MemoryPoolConfig } from '../../config/config-types.js';
import { testBot } from '../../config/test-support/test-bot.js';
import { assembleService } from '../../core/assemble-service.js';
import { perChatPayloads } from '../../core/per-chat-payloads.js';
import type { ServiceDeps } from '../../core/service-deps.js';
import { HashingEmbedder } from '../../embedding/hashing/hashing-embedder.js';
import type { ChunkWriter } from '../../ingest/chunk-writer.js';
import type { Journal } from '../../journal/journal.js';
import { openSqliteJournal } from '../../journal/sqlite/sqlite-journal.js';
import { createLogger, type Logger } from '../../logging/logger.js';
import { withStCollectionLayouts } from '../../store/st-hybrid/st-layout-point-store.js';
import {
  createMemoryPointStore,
  type MemoryPointStore,
} from '../../store/test-support/memory-point-store.js';
import { createServiceApp } from '../service-app.js';
import type { ServiceEnv } from '../service-env.js';

const FAKE_DIMENSIONS = 16;

export interface FakeServiceDepsOptions {
  /** Default: one bot, `mythos`. */
  readonly bots?: readonly BotConfig[];
  /** Replaces parts of the default config (keys, limits). */
  readonly config?: Partial<MemoryPoolConfig>;
  /** Default: a silent logger; pass one to read what the service logs. */
  readonly logger?: Logger;
  /** Default: a SQLite journal in the temporary folder; pass another backend's (closed by `close()`). */
  readonly journal?: Journal;
  /** Default: a new in-memory store; pass one to keep what it holds across starts, as Qdrant does. */
  readonly store?: MemoryPointStore;
}

export interface FakeServiceDeps {
  readonly deps: ServiceDeps;
  /** `createServiceApp(deps)`, for `app.request()`. */
  readonly app: Hono<ServiceEnv>;
  readonly store: MemoryPointStore;
  readonly journal: Journal;
  /** Never started: tests flush with `writer.runOnce`. */
  readonly writer: ChunkWriter;
  /** How often an operation woke the chunk writer. */
  readonly wakes: () => number;
  /** Stops the writer, closes the journal and deletes its folder. */
  close(): Promise<void>;
}

/**
 * The config of the in-process tests' service: the hashing embedder (16 dimensions), no API keys (every call is the
 * owner's), data in `dataDir`, the service's default limits; `overrides` replaces parts (keys, limits).
 */
export function createFakeServiceConfig(
  dataDir: string,
  bots: readonly BotConfig[],
  overrides: Partial<MemoryPoolConfig> = {},
): MemoryPoolConfig {
  return {
    listen: { host: '127.0.0.1', port: 0 },
    store: { kind: 'qdrant', url: 'http://127.0.0.1:6333' },
    embedding: { provider: 'hashing', dimensions: FAKE_DIMENSIONS },
    dataDir,
    apiKeys: [],
    limits: { maxBodyBytes: 1_048_576, maxMessagesPerSave: 500, maxTextChars: 16_000 },
    readiness: { timeoutMs: 2000, embedderCacheMs: 5000 },
    bots: Object.fromEntries(bots.map((bot) => [bot.name, bot])),
    ...overrides,
  };
}

/** Assembles the service; call `close()` after the test. */
export async function createFakeServiceDeps(options: FakeServiceDepsOptions = {}): Promise<FakeServiceDeps> {
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-http-'));
  const config = createFakeServiceConfig(dir, options.bots ?? [testBot('mythos')], options.config);
  const journal = options.journal ?? openSqliteJournal(dir);
  // Shared collections in their own layouts and per-chat payloads, as serve's store (start-memory-service.ts).
  const store = withStCollectionLayouts(options.store ?? createMemoryPointStore(), {
    payloadFor: perChatPayloads(config.bots, journal),
  });
  const service = await assembleService({
    config,
    store,
    journal,
    embedder: new HashingEmbedder({ dimensions: FAKE_DIMENSIONS }),
    logger: options.logger ?? createLogger({ level: 'silent' }),
    processMetrics: false,
  });
  // Counted on the way to the real wake (a no-op on a writer that was never started).
  let wakes = 0;
  const wake = service.writer.wake.bind(service.writer);
  service.writer.wake = () => {
    wakes += 1;
    wake();
  };
  return {
    deps: service.deps,
    wakes: () => wakes,
    app: createServiceApp(service.deps),
    store,
    journal,
    writer: service.writer,
    async close() {
      await service.close();
      await journal.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
