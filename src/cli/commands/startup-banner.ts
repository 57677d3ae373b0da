/**
 * @module The few lines `memory-pool serve` logs once it listens (API, viewer, store, journal, embedder and
 * its runtime, bots), instead of the whole configuration, which goes to the debug level.
 */
import { join } from 'node:path';
import type { MemoryPoolConfig } from '../../config/config-types.js';
import { maskUrl } from '../../config/describe-config.js';
import type { Embedder } from '../../embedding/embedder.js';

/** Where each part is and what it runs on, one short string each (secrets masked). */
export interface StartupBanner {
  readonly api: string;
  readonly viewer: string;
  readonly store: string;
  readonly journal: string;
  readonly embedder: string;
  readonly bots: string;
  readonly discord?: string;
}

/** The banner of a service listening at `url` with its store at `storeUrl`. */
export function describeStartup(
  config: MemoryPoolConfig,
  service: { readonly url: string; readonly storeUrl: string | undefined },
  embedder: Pick<Embedder, 'runtime'>,
): StartupBanner {
  const store = config.store.kind === 'embedded' ? 'embedded' : 'Qdrant';
  const postgres = config.journal?.postgres;
  return {
    api: service.url,
    viewer: `${service.url}/ui`,
    store: `${store} at ${maskUrl(service.storeUrl ?? (config.store.kind === 'qdrant' ? config.store.url : ''))}`,
    journal:
      postgres === undefined
        ? `SQLite at ${join(config.dataDir, 'journal.sqlite')}`
        : `Postgres at ${maskUrl(postgres.url)}`,
    embedder: describeEmbedder(config.embedding, embedder.runtime),
    bots: Object.values(config.bots)
      .map((bot) => `${bot.name} (collection ${bot.collection})`)
      .join(', '),
    ...(config.discord === undefined
      ? {}
      : { discord: `connects as bot ${config.discord.bot ?? Object.keys(config.bots)[0]}` }),
  };
}

function describeEmbedder(embedding: MemoryPoolConfig['embedding'], runtime: string | undefined): string {
  switch (embedding.provider) {
    case 'openai-compatible':
      return `${embedding.model} at ${maskUrl(embedding.baseUrl)}`;
    case 'offline':
      // The runtime is chosen as the first worker loads (logged then), so it is often not known yet.
      return `offline (USE-lite, 512-d) on ${runtime ?? 'ONNX Runtime or TensorFlow.js, chosen as the model loads'}`;
    case 'distilled':
      return 'distilled (USE-lite as a static token table, offline)';
    case 'hashing':
      return `hashing (${embedding.dimensions}-d, no model)`;
  }
}
