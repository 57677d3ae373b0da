/** @module The service's Prometheus metrics, in a registry of its own (so tests and several apps never collide). */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface QueueDepth {
  readonly pendingMessages: number;
  readonly plannedChunks: number;
}

export interface ServiceMetrics {
  readonly registry: Registry;
  readonly httpRequests: Counter<'route' | 'method' | 'status'>;
  readonly httpDuration: Histogram<'route'>;
  readonly messagesSaved: Counter<'bot' | 'result'>;
  readonly chunksStored: Counter<'bot'>;
  readonly chunkFailures: Counter<'bot' | 'code'>;
  readonly embedCalls: Counter<'purpose' | 'outcome'>;
  readonly embedDuration: Histogram<'purpose'>;
  readonly recallHits: Histogram<'bot'>;
  readonly configReloads: Counter<'outcome'>;
}

/** Creates the metrics; `readQueueDepth` is called at scrape time, so the gauge is always current. */
export function createServiceMetrics(
  readQueueDepth: () => QueueDepth | Promise<QueueDepth>,
  options: { processMetrics?: boolean } = {},
) {
  const registry = new Registry();
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'memory_pool_' });
  const metrics: ServiceMetrics = {
    registry,
    httpRequests: new Counter({
      name: 'memory_pool_http_requests_total',
      help: 'HTTP requests answered, by route, method and status.',
      labelNames: ['route', 'method', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'memory_pool_http_request_duration_seconds',
      help: 'Time to answer HTTP requests, by route.',
      labelNames: ['route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    messagesSaved: new Counter({
      name: 'memory_pool_messages_saved_total',
      help: 'Messages received by /save, by bot and result (accepted, duplicate).',
      labelNames: ['bot', 'result'],
      registers: [registry],
    }),
    chunksStored: new Counter({
      name: 'memory_pool_chunks_stored_total',
      help: 'Chunks embedded and written to the store.',
      labelNames: ['bot'],
      registers: [registry],
    }),
    chunkFailures: new Counter({
      name: 'memory_pool_chunk_write_failures_total',
      help: 'Failed attempts to embed or store a chunk (each is retried with backoff), by error code.',
      labelNames: ['bot', 'code'],
      registers: [registry],
    }),
    embedCalls: new Counter({
      name: 'memory_pool_embed_calls_total',
      help: 'Calls to the embedder, by purpose (chunk, query) and outcome (ok, error); cached query embeddings count as ok.',
      labelNames: ['purpose', 'outcome'],
      registers: [registry],
    }),
    embedDuration: new Histogram({
      name: 'memory_pool_embed_duration_seconds',
      help: 'Time spent in the embedder, by purpose.',
      labelNames: ['purpose'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    recallHits: new Histogram({
      name: 'memory_pool_recall_hits',
      help: 'Hits returned per /retrieve, by bot.',
      labelNames: ['bot'],
      buckets: [0, 1, 2, 3, 5, 8, 13, 21],
      registers: [registry],
    }),
    configReloads: new Counter({
      name: 'memory_pool_config_reloads_total',
      help: 'Config file changes read by serve, by outcome: applied (new API keys in use), unchanged (no key changed) or refused (invalid; the keys in use stay).',
      labelNames: ['outcome'],
      registers: [registry],
    }),
  };
  new Gauge({
    name: 'memory_pool_queue_depth',
    help: 'Work accepted but not yet stored: pending messages (not yet in a chunk) and planned chunks.',
    labelNames: ['kind'],
    registers: [registry],
    // Async: prom-client awaits it, so the journal (SQLite or Postgres) is read at each scrape.
    async collect() {
      const depth = await readQueueDepth();
      this.set({ kind: 'pending_messages' }, depth.pendingMessages);
      this.set({ kind: 'planned_chunks' }, depth.plannedChunks);
    },
  });
  return metrics;
}
