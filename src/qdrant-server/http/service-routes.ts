/** @module The routes outside the envelope: version info and the health probes (qdrant-subset.md §0.1). */
import type { Hono } from 'hono';
import type { QdrantEnv } from './qdrant-env.js';

/** The Qdrant version whose semantics the embedded store follows; qdrant-js compares it with its own. */
export const EMULATED_QDRANT_VERSION = '1.19.0';

export function registerServiceRoutes(app: Hono<QdrantEnv>): void {
  // No `commit` key: Qdrant leaves it out when unknown, and there is no Qdrant commit to report.
  app.get('/', (c) => c.json({ title: 'qdrant - vector search engine', version: EMULATED_QDRANT_VERSION }));
  app.get('/healthz', (c) => c.text('healthz check passed'));
  app.get('/livez', (c) => c.text('healthz check passed'));
  app.get('/readyz', (c) => c.text('all shards are ready'));
}
