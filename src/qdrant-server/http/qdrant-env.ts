/** @module The Hono environment every route of the embedded Qdrant API shares. */
import type { StoreEngine } from '../engine/engine-api.js';

/** What the caller's key allows: everything, or reads only (the read-only api key). */
export type Access = 'full' | 'read';

export interface QdrantEnv {
  Variables: {
    /** performance.now() when the request arrived; `time` in the envelope is measured from here. */
    startedAt: number;
    access: Access;
    engine: StoreEngine;
  };
}
