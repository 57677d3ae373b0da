/** @module Test helpers for the engine's tests: fresh data dirs, a small collection, and terse request builders. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import type { Filter } from '../filter/filter-ast.js';
import { parseFilter } from '../filter/index.js';
import type { CollectionEngine, Distance, ReadOptions, StoreEngine } from './engine-api.js';
import { openStoreEngine } from './store-engine.js';

export { seededRandom } from '../../runtime/seeded-random.js';

/** A data dir removed when the test file ends. */
export function makeDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mp-engine-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** An open engine in a fresh dir, closed when the test file ends. */
export function openTestStore(): { store: StoreEngine; dataDir: string } {
  const dataDir = makeDataDir();
  const store = openStoreEngine({ dataDir });
  after(() => store.close());
  return { store, dataDir };
}

/** Creates a collection with one unnamed vector. */
export function createTestCollection(
  store: StoreEngine,
  name: string,
  size: number,
  distance: Distance,
): CollectionEngine {
  store.createCollection(name, { vectors: { size, distance, extras: {} }, settings: {} });
  return store.collection(name);
}

/** Read options: payload on or off, vector off unless asked. */
export function read(withPayload = false, withVector = false): ReadOptions {
  return { withPayload: { kind: withPayload ? 'all' : 'none' }, withVector };
}

/** Parses a Qdrant filter JSON value into the AST. */
export function filter(json: unknown): Filter {
  return parseFilter(json) as Filter;
}

/** Stored payloads have no prototype; deepEqual compares prototypes, so tests compare their JSON instead. */
export function plainJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
