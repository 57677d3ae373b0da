/** @module The embedded store's engine: the set of collections, loaded from SQLite on open and kept in memory. */
import { alreadyExists, notFound } from '../qdrant-error.js';
import type {
  CollectionEngine,
  CollectionSpec,
  PayloadFieldSchema,
  StoreEngine,
  StoreEngineOptions,
} from './engine-api.js';
import { EmbeddedCollection } from './collection-engine.js';
import { SqlitePersistence } from './sqlite-persistence.js';

/** Qdrant lists collection names in byte order (a BTreeMap), which differs from UTF-16 order for astral characters. */
function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

class EmbeddedStore implements StoreEngine {
  private readonly collections = new Map<string, EmbeddedCollection>();
  private closed = false;

  constructor(private readonly db: SqlitePersistence) {
    for (const stored of db.loadCollections()) {
      const collection = new EmbeddedCollection(
        {
          name: stored.name,
          spec: stored.spec as CollectionSpec,
          indexes: stored.indexes as Record<string, PayloadFieldSchema>,
          operations: stored.operations,
        },
        db,
      );
      for (const row of db.loadPoints(stored.name)) collection.loadPoint(row);
      this.collections.set(stored.name, collection);
    }
  }

  listCollections(): string[] {
    return [...this.collections.keys()].sort(compareBytes);
  }

  exists(name: string): boolean {
    return this.collections.has(name);
  }

  collection(name: string): CollectionEngine {
    const collection = this.collections.get(name);
    if (collection === undefined) throw notFound(`Collection \`${name}\` doesn't exist!`);
    return collection;
  }

  createCollection(name: string, spec: CollectionSpec): void {
    if (this.collections.has(name)) throw alreadyExists(`Collection \`${name}\` already exists!`);
    this.db.transaction(() => this.db.insertCollection(name, spec, {}));
    this.collections.set(name, new EmbeddedCollection({ name, spec, indexes: {}, operations: 0 }, this.db));
  }

  deleteCollection(name: string): boolean {
    const collection = this.collections.get(name);
    if (collection === undefined) return false;
    this.db.transaction(() => this.db.deleteCollection(name));
    this.collections.delete(name);
    collection.drop();
    return true;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }
}

/**
 * Opens the store in `dataDir`, loading every collection into memory. Throws a clear error when another
 * process holds the same data dir.
 */
export function openStoreEngine(options: StoreEngineOptions): StoreEngine {
  const db = new SqlitePersistence(options.dataDir);
  try {
    return new EmbeddedStore(db);
  } catch (error) {
    db.close();
    throw error;
  }
}
