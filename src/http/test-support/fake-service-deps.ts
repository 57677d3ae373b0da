/**
 * @module ServiceDeps, and the app over them, for in-process tests of the HTTP app (`app.request()`): the real parts,
 * small enough to build here (a journal in a temporary folder, the one in-memory store, the hashing embedder,
 * a chunk writer that is not started), instead of a service listening on ports.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hono } from 'hono';
import type { BotConfig, MemoryPoolConfig } from '../../config/config-types.js';
import { HashingEmbedder } from '../../embedding/hashing/hashing-embedder.js';
import { StoreError } from '../../errors/memory-pool-error.js';
import { forgetMemories } from '../../forgetting/forget-memories.js';
import { ChunkWriter } from '../../ingest/chunk-writer.js';
import { openMessageJournal } from '../../journal/message-journal.js';
import { createLogger } from '../../logging/logger.js';
import { createServiceMetrics } from '../../metrics/service-metrics.js';
import { createPartsGuard } from '../../parts/parts-guard.js';
import { PartsIndex } from '../../parts/parts-index.js';
import { retrieveMemories } from '../../retrieval/retrieve-memories.js';
import { testBot } from '../../service/test-support/start-test-service.js';
import { createCollectionGuard } from '../../store/collection-guard.js';
import {
  createMemoryPointStore,
  type MemoryPointStore,
} from '../../store/test-support/memory-point-store.js';
import type { TimelineStore } from '../../store/timeline-store.js';
import { createViewerBackend } from '../../viewer/viewer-backend.js';
import { createServiceApp } from '../service-app.js';
import type { ServiceDeps, ServiceEnv } from '../service-deps.js';

const FAKE_DIMENSIONS = 16;

export interface FakeServiceDepsOptions {
  /** Default: one bot, `mythos`. */
  readonly bots?: readonly BotConfig[];
  /** Replaces parts of the default config (keys, limits). */
  readonly config?: Partial<MemoryPoolConfig>;
}

export interface FakeServiceDeps {
  readonly deps: ServiceDeps;
  /** `createServiceApp(deps)`, for `app.request()`. */
  readonly app: Hono<ServiceEnv>;
  readonly store: MemoryPointStore;
  /** How often a route woke the chunk writer (it is never started: tests flush with `writer.runOnce`). */
  readonly wakes: () => number;
  readonly writer: ChunkWriter;
  /** Closes the journal and deletes its folder. */
  close(): void;
}

/**
 * The in-memory store has no `order_by` scroll, which only the viewer's timeline uses: that stays tested over
 * the whole service (src/http/routes/viewer-routes.test.ts), so here it is a stub that says so.
 */
function withoutOrderedScroll(store: MemoryPointStore): MemoryPointStore & TimelineStore {
  return {
    ...store,
    requestFloatIndex: async () => {},
    scrollOrdered: async () => {
      throw new StoreError('store_unavailable', 'the in-memory test store has no ordered scroll', {
        retryable: false,
      });
    },
  };
}

/** Builds the deps; call `close()` after the test. */
export function createFakeServiceDeps(options: FakeServiceDepsOptions = {}): FakeServiceDeps {
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-http-'));
  const bots = options.bots ?? [testBot('mythos')];
  const config: MemoryPoolConfig = {
    listen: { host: '127.0.0.1', port: 0 },
    store: { kind: 'qdrant', url: 'http://127.0.0.1:6333' },
    embedding: { provider: 'hashing', dimensions: FAKE_DIMENSIONS },
    dataDir: dir,
    apiKeys: [],
    limits: { maxBodyBytes: 1_048_576, maxMessagesPerSave: 500, maxTextChars: 16_000 },
    readiness: { timeoutMs: 2000, embedderCacheMs: 5000 },
    bots: Object.fromEntries(bots.map((bot) => [bot.name, bot])),
    ...options.config,
  };
  const journal = openMessageJournal(dir);
  const store = createMemoryPointStore();
  const embedder = new HashingEmbedder({ dimensions: FAKE_DIMENSIONS });
  const logger = createLogger({ level: 'silent' });
  const metrics = createServiceMetrics(() => journal.queueDepth(), { processMetrics: false });
  const guard = createCollectionGuard(store, journal);
  const partsGuard = createPartsGuard(store, journal);
  const parts = new PartsIndex({ bots: config.bots, journal, store, embedder, guard: partsGuard });
  const writer = new ChunkWriter({
    bots: config.bots,
    journal,
    store,
    embedder,
    guard,
    metrics,
    logger,
    parts,
  });
  let wakes = 0;
  const deps: ServiceDeps = {
    config,
    journal,
    metrics,
    logger,
    store,
    wakeWriter: () => {
      wakes += 1;
    },
    retrieve: (bot, request, signal) =>
      retrieveMemories(
        {
          store,
          embedder,
          guard,
          partsGuard,
          forgottenIds: (botName, ids) => journal.forgetting.forgottenAmong(botName, ids),
          chunkMessages: (chunkId) => journal.chunks.chunkMessages(chunkId),
        },
        bot,
        request,
        signal,
      ),
    forget: (bot, request, permissions) =>
      forgetMemories(
        {
          journal,
          store,
          parts,
          runExclusive: (task) => writer.runExclusive(task),
          wakeWriter: () => deps.wakeWriter(),
        },
        bot,
        request,
        permissions,
      ),
    checkReadiness: async () => ({ store: { ok: true }, embedder: { ok: true }, journal: { ok: true } }),
    viewer: createViewerBackend({ store: withoutOrderedScroll(store), journal, embedder, guard }),
  };
  return {
    deps,
    app: createServiceApp(deps),
    store,
    wakes: () => wakes,
    writer,
    close() {
      journal.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
