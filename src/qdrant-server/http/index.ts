/** @module The embedded store's HTTP layer: the Qdrant-compatible app and the server that hosts it. */
export { createQdrantApp, type QdrantAppOptions } from './qdrant-app.js';
export { startQdrantServer, type QdrantServer, type QdrantServerOptions } from './server.js';
export type { PostedSparseVector, PostedVector, UpsertBatch } from './posted-upsert.js';
export { EMULATED_QDRANT_VERSION } from './service-routes.js';
