/** @module The embedded store's engine: open it with `openStoreEngine`; the types are the seam the HTTP layer codes against. */
export { openStoreEngine } from './store-engine.js';
export type * from './engine-api.js';
export {
  type PointId,
  comparePointIds,
  parseJsonPointId,
  parsePathPointId,
  parseUuid,
  pointIdFromKey,
  pointIdKey,
} from './point-id.js';
