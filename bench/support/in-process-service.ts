/**
 * @module The real service started in the benchmark's own process on a scratch folder: the product's
 * defaults from the config schema, free ports, an embedded store, the configured embedders, silent logs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryPoolClient } from '../../src/client/memory-pool-client.js';
import { configSchema } from '../../src/config/config-schema.js';
import type { MemoryPoolConfig } from '../../src/config/config-types.js';
import { createEmbedder, createQueryEmbedder } from '../../src/embedding/create-embedder.js';
import type { Embedder } from '../../src/embedding/embedder.js';
import { createLogger } from '../../src/logging/logger.js';
import { startMemoryService } from '../../src/service/start-memory-service.js';

/** A running service, a client of it, and `close()` that stops it and removes its folder. */
export interface BenchService {
  readonly client: MemoryPoolClient;
  readonly storeUrl: string;
  close(): Promise<void>;
}

/**
 * Starts the service with `settings` (a config file's content) in a new temporary folder; `wrapQueryEmbedder`
 * decorates the query embedder (e.g. to time it).
 */
export async function startBenchService(
  settings: unknown,
  wrapQueryEmbedder: (embedder: Embedder) => Embedder = (embedder) => embedder,
): Promise<BenchService> {
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-bench-'));
  const config: MemoryPoolConfig = {
    ...configSchema.parse(settings),
    listen: { host: '127.0.0.1', port: 0 },
    store: { kind: 'embedded', path: join(dir, 'qdrant'), host: '127.0.0.1', port: 0 },
    dataDir: join(dir, 'service'),
  };
  const logger = createLogger({ level: 'silent' });
  const service = await startMemoryService({
    config,
    embedder: createEmbedder(config.embedding, { logger }),
    queryEmbedder: wrapQueryEmbedder(createQueryEmbedder(config.embedding, { logger })),
    logger,
  });
  return {
    client: new MemoryPoolClient({ baseUrl: service.url, timeoutMs: 60_000 }),
    storeUrl: service.storeUrl!,
    close: async () => {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
