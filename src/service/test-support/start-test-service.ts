/** @module Starts a real memory service on free ports with the embedded store and the hashing embedder, for tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BotConfig, MemoryPoolConfig } from '../../config/config-types.js';
import { TEST_DIMENSIONS, testBot } from '../../config/test-support/test-bot.js';
import { HashingEmbedder } from '../../embedding/hashing/hashing-embedder.js';
import type { Embedder } from '../../embedding/embedder.js';
import type { Journal } from '../../journal/journal.js';
import { createLogger } from '../../logging/logger.js';
import {
  type MemoryService,
  type MemoryServiceOptions,
  startMemoryService,
} from '../start-memory-service.js';

export interface TestService extends MemoryService {
  readonly dir: string;
  readonly config: MemoryPoolConfig;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; json: any }>;
  /** Closes the service, keeping the data folder (for restart tests). */
  stop(): Promise<void>;
}

export interface TestServiceOptions {
  readonly bots?: readonly BotConfig[];
  readonly config?: Partial<MemoryPoolConfig>;
  readonly embedder?: Embedder;
  /** Reuse a data folder (restart tests). */
  readonly dir?: string;
  readonly recallDeadlineMs?: number;
  /** Replace the journal (e.g. one whose writes fail); the service closes it. */
  readonly journal?: Journal;
  /** Where the Discord connection reaches Discord (with `config.discord`). */
  readonly discord?: MemoryServiceOptions['discord'];
}

/** Starts the service; `close()` also deletes the data folder. */
export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'memory-pool-test-'));
  const bots = options.bots ?? [testBot('mythos')];
  const config: MemoryPoolConfig = {
    listen: { host: '127.0.0.1', port: 0 },
    store: { kind: 'embedded', path: join(dir, 'qdrant'), host: '127.0.0.1', port: 0 },
    embedding: { provider: 'hashing', dimensions: TEST_DIMENSIONS },
    dataDir: join(dir, 'service'),
    apiKeys: [],
    limits: { maxBodyBytes: 1_048_576, maxMessagesPerSave: 500, maxTextChars: 16_000 },
    readiness: { timeoutMs: 2000, embedderCacheMs: 5000 },
    bots: Object.fromEntries(bots.map((b) => [b.name, b])),
    ...options.config,
  };
  const service = await startMemoryService({
    config,
    embedder: options.embedder ?? new HashingEmbedder({ dimensions: TEST_DIMENSIONS }),
    logger: createLogger({ level: 'silent' }),
    ...(options.recallDeadlineMs === undefined ? {} : { recallDeadlineMs: options.recallDeadlineMs }),
    ...(options.journal === undefined ? {} : { journal: options.journal }),
    ...(options.discord === undefined ? {} : { discord: options.discord }),
  });
  return {
    ...service,
    dir,
    config,
    async post(path, body, headers = {}) {
      const response = await fetch(`${service.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, json: text ? JSON.parse(text) : undefined };
    },
    stop: () => service.close(),
    async close() {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
