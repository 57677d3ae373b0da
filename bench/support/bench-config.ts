/** @module The service config the in-process benchmarks run: product limits, free ports, one bot, a scratch folder. */
import { join } from 'node:path';
import type { BotConfig, MemoryPoolConfig } from '../../src/config/config-types.js';

/** The embedded store and the offline provider on free loopback ports, everything kept under `dir`. */
export function benchConfig(dir: string, bot: BotConfig): MemoryPoolConfig {
  return {
    listen: { host: '127.0.0.1', port: 0 },
    store: { kind: 'embedded', path: join(dir, 'qdrant'), host: '127.0.0.1', port: 0 },
    embedding: { provider: 'offline' },
    dataDir: join(dir, 'service'),
    apiKeys: [],
    limits: { maxBodyBytes: 1_048_576, maxMessagesPerSave: 500, maxTextChars: 16_000 },
    readiness: { timeoutMs: 2000, embedderCacheMs: 5000 },
    bots: { [bot.name]: bot },
  };
}
