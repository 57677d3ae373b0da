/**
 * @module A collection's HNSW graphs kept across restarts (issue 36): rebuilding one took 155 s at 100,000
 * vectors, searching exactly meanwhile. A graph is saved once it settles after growing by half (graph-index.ts)
 * and when the store closes; at load it is adopted for the points whose version is still the one saved (the
 * rest are re-added in the background), or rebuilt when its files fail their checks. The graph stays derived
 * data: SQLite's points are the truth, and a graph that cannot be saved or loaded only costs a rebuild.
 */
import { createIndex, type GraphIndex, type GraphOptions } from './graph-index.js';
import { readGraphFiles, removeUnusedGraphFiles, type SavedFiles, writeGraphFiles } from './graph-files.js';
import type { DenseSlot, PointTable } from './point-table.js';
import type { SqlitePersistence } from './sqlite-persistence.js';

/** A saved graph's SQLite row: its files, and the settings it was built with (another build is not reused). */
export interface GraphMeta extends SavedFiles {
  readonly dim: number;
  readonly options: GraphOptions;
  /** Keys in the usearch index, dead ones included. */
  readonly size: number;
  readonly nextKey: number;
}

/** Every saved graph's row by collection, then vector name, as read at open. */
export type SavedGraphs = ReadonlyMap<string, ReadonlyMap<string, GraphMeta>>;

/** Reads the saved graphs' rows and deletes the files none of them names (saves cut short, replaced saves). */
export function readSavedGraphs(db: SqlitePersistence): SavedGraphs {
  const saved = new Map<string, Map<string, GraphMeta>>();
  for (const row of db.loadGraphs()) {
    const ofCollection = saved.get(row.collection) ?? new Map<string, GraphMeta>();
    ofCollection.set(row.vector, row.meta as GraphMeta);
    saved.set(row.collection, ofCollection);
  }
  const used = new Set(
    [...saved.values()].flatMap((graphs) => [...graphs.values()].map((meta) => meta.file)),
  );
  removeUnusedGraphFiles(db.graphDir, used);
  return saved;
}

function sameSettings(meta: GraphMeta, dim: number, options: GraphOptions): boolean {
  const { distance, m, efConstruct } = meta.options;
  return (
    meta.dim === dim &&
    distance === options.distance &&
    m === options.m &&
    efConstruct === options.efConstruct
  );
}

/**
 * Adopts each saved graph of a just loaded collection whose files pass their checks and whose settings are
 * the collection's; a key counts only if its point's version is the one saved (same write, same vector).
 */
export function restoreGraphs(
  collection: string,
  table: PointTable,
  saved: SavedGraphs,
  graphDir: string,
): void {
  for (const [name, meta] of saved.get(collection) ?? []) {
    const graph = table.graphs.get(name);
    const slots = table.dense.get(name);
    // Under the threshold now (or the graph turned off): built again when the collection passes it, as before.
    if (graph === undefined || slots === undefined || graph.state() === undefined) continue;
    if (!sameSettings(meta, slots.dim, graph.options)) continue;
    const index = createIndex(slots.dim, graph.options);
    const keys = readGraphFiles(graphDir, meta, index);
    const reason =
      typeof keys === 'string'
        ? keys
        : Number(index.size()) !== meta.size || keys.keys.length !== keys.points.length
          ? 'its files do not agree with each other'
          : undefined;
    if (reason !== undefined || typeof keys === 'string') {
      console.error(`memory-pool: the saved HNSW graph of ${collection} is rebuilt, since ${reason}`);
      continue;
    }
    const owners = new Map<number, DenseSlot>();
    keys.keys.forEach((key, i) => {
      const entry = table.getByKey(keys.points[i]!);
      const owner = entry?.version === keys.versions[i] ? entry?.dense.get(name) : undefined;
      if (owner !== undefined) owners.set(key, owner);
    });
    graph.adopt(index, owners, meta.nextKey);
  }
}

/**
 * Saves one vector's graph if keys were added since its last save: the files first, then the row in one
 * commit, then the files it replaced go. Never throws: a graph that cannot be saved is rebuilt after a start.
 */
export function saveGraph(
  db: SqlitePersistence,
  collection: string,
  name: string,
  graph: GraphIndex<DenseSlot>,
): void {
  const state = graph.state();
  if (state === undefined || graph.unsaved === 0) return;
  const dim = graph.slots.dim;
  try {
    const [keys, points, versions] = [[] as number[], [] as string[], [] as number[]];
    for (const [key, owner] of state.owners) {
      keys.push(key);
      points.push(owner.point.key);
      versions.push(owner.point.version);
    }
    const files = writeGraphFiles(db.graphDir, state.index, { keys, points, versions });
    const meta: GraphMeta = {
      ...files,
      dim,
      options: graph.options,
      size: state.size,
      nextKey: state.nextKey,
    };
    db.transaction(() => db.putGraph(collection, name, meta));
    graph.saved();
    readSavedGraphs(db);
  } catch (error) {
    console.error(
      `memory-pool: could not save the HNSW graph of ${collection} (rebuilt after a restart): ${String(error)}`,
    );
  }
}
