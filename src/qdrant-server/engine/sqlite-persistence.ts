/**
 * @module The embedded store's durable state: one SQLite file (better-sqlite3, WAL) holding collections,
 * points and aliases. Every write runs in one transaction that commits before the engine answers.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** The file inside `dataDir`. */
export const DATABASE_FILE = 'store.sqlite';

/** A collection row as stored. */
export interface StoredCollection {
  readonly name: string;
  readonly spec: unknown;
  readonly indexes: unknown;
  /** The number of operations applied so far; the next operation gets this number. */
  readonly operations: number;
}

/** A point row as stored. */
export interface StoredPoint {
  readonly key: string;
  /** The unnamed dense vector's f32 bytes. */
  readonly vector: Buffer | null;
  /** Named dense and sparse vectors (vector-codec.ts); null in rows written before they existed. */
  readonly vectors: Buffer | null;
  readonly payload: string;
  readonly version: number;
}

/** A point's stored vector columns, as an on-disk vector read takes them (stored-vectors.ts). */
export type StoredVectorColumns = Pick<StoredPoint, 'vector' | 'vectors'>;

/**
 * Keys per batched vector read: one statement's call and planning shared by 32 lookups, while a search that stops
 * early reads at most 31 rows too many.
 */
const POINT_BATCH = 32;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS collections (
  name TEXT PRIMARY KEY,
  spec TEXT NOT NULL,
  indexes TEXT NOT NULL,
  operations INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS points (
  collection TEXT NOT NULL,
  id_key TEXT NOT NULL,
  vector BLOB,
  payload TEXT NOT NULL,
  vectors BLOB,
  version INTEGER NOT NULL,
  PRIMARY KEY (collection, id_key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS aliases (
  alias TEXT PRIMARY KEY,
  collection TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS graphs (
  collection TEXT NOT NULL,
  vector TEXT NOT NULL,
  meta TEXT NOT NULL,
  PRIMARY KEY (collection, vector)
);
`;

/** The folder inside `dataDir` holding the saved HNSW graphs (graph-files.ts); SQLite's `graphs` rows name them. */
export const GRAPH_FOLDER = 'graphs';

/** Opens (creating if needed) the store file, holding an exclusive lock until close. */
export function openDatabase(dataDir: string): Database.Database {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, DATABASE_FILE);
  // timeout 0: a locked file must fail at once, not after better-sqlite3's 5 s busy wait.
  const db = new Database(path, { timeout: 0 });
  try {
    // EXCLUSIVE locking makes SQLite keep its lock from the first write until close, so a second process
    // on the same dataDir fails here instead of serving its own, diverging copy of the data in memory.
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode: a commit is in the WAL file (OS cache) before the call returns, which survives a
    // killed process (kill -9) but not a power loss or OS crash; FULL would add an fsync per write.
    db.pragma('synchronous = NORMAL');
    db.exec(SCHEMA);
    addMissingColumns(db);
    // Take the write lock now rather than at the first client write.
    db.exec('BEGIN IMMEDIATE; COMMIT;');
  } catch (error) {
    db.close();
    if (isBusy(error)) {
      throw new Error(
        `The embedded store's data dir ${dataDir} is in use by another memory-pool process (${path} is locked). Stop that process or use a different data dir.`,
        { cause: error },
      );
    }
    throw error;
  }
  return db;
}

/** Brings a data dir written by an older version up to the current schema; old rows read as before. */
function addMissingColumns(db: Database.Database): void {
  const columns = (db.pragma('table_info(points)') as { name: string }[]).map((column) => column.name);
  // Named and sparse vectors came later; NULL there means "only the unnamed vector, if any".
  if (!columns.includes('vectors')) db.exec('ALTER TABLE points ADD COLUMN vectors BLOB');
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

/** Prepared statements over the two tables; the engine wraps each of its operations in `transaction`. */
export class SqlitePersistence {
  readonly #db: Database.Database;
  readonly #statements;
  /** Where the saved graphs' files live. */
  readonly graphDir: string;

  constructor(dataDir: string) {
    this.#db = openDatabase(dataDir);
    this.graphDir = join(dataDir, GRAPH_FOLDER);
    const db = this.#db;
    this.#statements = {
      collections: db.prepare('SELECT name, spec, indexes, operations FROM collections'),
      points: db.prepare('SELECT id_key, vector, vectors, payload, version FROM points WHERE collection = ?'),
      countPoints: db.prepare('SELECT COUNT(*) AS count FROM points WHERE collection = ?'),
      insertCollection: db.prepare(
        'INSERT INTO collections (name, spec, indexes, operations) VALUES (?, ?, ?, 0)',
      ),
      deleteCollection: db.prepare('DELETE FROM collections WHERE name = ?'),
      deleteCollectionPoints: db.prepare('DELETE FROM points WHERE collection = ?'),
      setOperations: db.prepare('UPDATE collections SET operations = ? WHERE name = ?'),
      setIndexes: db.prepare('UPDATE collections SET indexes = ? WHERE name = ?'),
      setSpec: db.prepare('UPDATE collections SET spec = ? WHERE name = ?'),
      putPoint: db.prepare(
        'INSERT OR REPLACE INTO points (collection, id_key, vector, vectors, payload, version) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      setPayload: db.prepare(
        'UPDATE points SET payload = ?, version = ? WHERE collection = ? AND id_key = ?',
      ),
      deletePoint: db.prepare('DELETE FROM points WHERE collection = ? AND id_key = ?'),
      aliases: db.prepare('SELECT alias, collection FROM aliases'),
      clearAliases: db.prepare('DELETE FROM aliases'),
      insertAlias: db.prepare('INSERT INTO aliases (alias, collection) VALUES (?, ?)'),
      graphs: db.prepare('SELECT collection, vector, meta FROM graphs'),
      putGraph: db.prepare('INSERT OR REPLACE INTO graphs (collection, vector, meta) VALUES (?, ?, ?)'),
      deleteGraphs: db.prepare('DELETE FROM graphs WHERE collection = ?'),
    };
  }

  /** Runs `write` in one transaction: all of it is committed, or none. */
  transaction<T>(write: () => T): T {
    return this.#db.transaction(write)();
  }

  loadCollections(): StoredCollection[] {
    return (
      this.#statements.collections.all() as {
        name: string;
        spec: string;
        indexes: string;
        operations: number;
      }[]
    ).map((row) => ({
      name: row.name,
      spec: JSON.parse(row.spec),
      indexes: JSON.parse(row.indexes),
      operations: row.operations,
    }));
  }

  /** How many points a collection has stored. */
  countPoints(collection: string): number {
    return (this.#statements.countPoints.get(collection) as { count: number }).count;
  }

  /** Streams a collection's points, so loading never holds every row's JS object at once. */
  *loadPoints(collection: string): Generator<StoredPoint> {
    for (const row of this.#statements.points.iterate(collection) as Iterable<{
      id_key: string;
      vector: Buffer | null;
      vectors: Buffer | null;
      payload: string;
      version: number;
    }>) {
      yield {
        key: row.id_key,
        vector: row.vector,
        vectors: row.vectors,
        payload: row.payload,
        version: row.version,
      };
    }
  }

  insertCollection(name: string, spec: unknown, indexes: unknown): void {
    this.#statements.insertCollection.run(name, JSON.stringify(spec), JSON.stringify(indexes));
  }

  deleteCollection(name: string): void {
    // In the same transaction as the points: a collection created again under this name never sees the old graph.
    this.#statements.deleteGraphs.run(name);
    this.#statements.deleteCollectionPoints.run(name);
    this.#statements.deleteCollection.run(name);
  }

  setOperations(name: string, operations: number): void {
    this.#statements.setOperations.run(operations, name);
  }

  setSpec(name: string, spec: unknown): void {
    this.#statements.setSpec.run(JSON.stringify(spec), name);
  }

  setIndexes(name: string, indexes: unknown): void {
    this.#statements.setIndexes.run(JSON.stringify(indexes), name);
  }

  putPoint(
    collection: string,
    key: string,
    vector: Buffer | null,
    vectors: Buffer | null,
    payload: unknown,
    version: number,
  ): void {
    this.#statements.putPoint.run(collection, key, vector, vectors, JSON.stringify(payload), version);
  }

  setPayload(collection: string, key: string, payload: unknown, version: number): void {
    this.#statements.setPayload.run(JSON.stringify(payload), version, collection, key);
  }

  deletePoint(collection: string, key: string): void {
    this.#statements.deletePoint.run(collection, key);
  }

  /** Every alias → collection pair. */
  loadAliases(): Map<string, string> {
    const rows = this.#statements.aliases.all() as { alias: string; collection: string }[];
    return new Map(rows.map((row) => [row.alias, row.collection]));
  }

  /** Replaces the whole alias table (call inside `transaction`). */
  saveAliases(aliases: ReadonlyMap<string, string>): void {
    this.#statements.clearAliases.run();
    for (const [alias, collection] of aliases) this.#statements.insertAlias.run(alias, collection);
  }

  /** Every saved graph's row: which files hold it and what they must match (graph-files.ts reads `meta`). */
  loadGraphs(): { collection: string; vector: string; meta: unknown }[] {
    const rows = this.#statements.graphs.all() as { collection: string; vector: string; meta: string }[];
    return rows.map((row) => ({
      collection: row.collection,
      vector: row.vector,
      meta: JSON.parse(row.meta),
    }));
  }

  /** Records a saved graph, replacing the vector's previous one; its files are complete before this is called. */
  putGraph(collection: string, vector: string, meta: unknown): void {
    this.#statements.putGraph.run(collection, vector, JSON.stringify(meta));
  }

  /**
   * One point's stored vector columns (its on-disk vectors: stored-vectors.ts), prepared on first use; one
   * primary-key lookup each.
   */
  readPointVectors(
    collection: string,
    key: string,
  ): { vector: Buffer | null; vectors: Buffer | null } | undefined {
    this.#pointVectors ??= this.#db.prepare(
      'SELECT vector, vectors FROM points WHERE collection = ? AND id_key = ?',
    );
    return this.#pointVectors.get(collection, key) as
      | { vector: Buffer | null; vectors: Buffer | null }
      | undefined;
  }

  #pointVectors: Database.Statement | undefined;

  /**
   * The stored vector columns of many points, by key (absent for one the store no longer has): one statement
   * per POINT_BATCH keys (`id_key IN (…)`), not one lookup each; the last batch repeats its last key.
   */
  readPointVectorsBatch(collection: string, keys: readonly string[]): Map<string, StoredVectorColumns> {
    this.#pointVectorsBatch ??= this.#db.prepare(
      `SELECT id_key AS key, vector, vectors FROM points WHERE collection = ? AND id_key IN (${Array(POINT_BATCH).fill('?').join(', ')})`,
    );
    const found = new Map<string, StoredVectorColumns>();
    for (let start = 0; start < keys.length; start += POINT_BATCH) {
      const batch = keys.slice(start, start + POINT_BATCH);
      while (batch.length < POINT_BATCH) batch.push(batch[batch.length - 1] as string);
      for (const row of this.#pointVectorsBatch.all(collection, ...batch) as ({
        key: string;
      } & StoredVectorColumns)[])
        found.set(row.key, row);
    }
    return found;
  }

  #pointVectorsBatch: Database.Statement | undefined;

  close(): void {
    this.#db.close();
  }
}
