/** @module The embedded store's engine: the set of collections, loaded from SQLite on open and kept in memory. */
import { alreadyExists, badInput, notFound } from '../qdrant-error.js';
import { AliasTable } from './alias-table.js';
import type {
  AliasAction,
  AliasDescription,
  CollectionEngine,
  CollectionSpec,
  PayloadFieldSchema,
  StoreEngine,
  StoreEngineOptions,
} from './engine-api.js';
import { EmbeddedCollection } from './collection-engine.js';
import { readSavedGraphs } from './graph-persistence.js';
import { SqlitePersistence } from './sqlite-persistence.js';

/** Qdrant lists collection names in byte order (a BTreeMap), which differs from UTF-16 order for astral characters. */
function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

class EmbeddedStore implements StoreEngine {
  readonly #collections = new Map<string, EmbeddedCollection>();
  readonly #aliases: AliasTable;
  #closed = false;

  readonly #db: SqlitePersistence;

  constructor(db: SqlitePersistence) {
    this.#db = db;
    this.#aliases = new AliasTable(db.loadAliases());
    const graphs = readSavedGraphs(db);
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
      collection.loadPoints(db.countPoints(stored.name), db.loadPoints(stored.name), graphs);
      this.#collections.set(stored.name, collection);
    }
  }

  listCollections(): string[] {
    return [...this.#collections.keys()].sort(compareBytes);
  }

  exists(name: string): boolean {
    return this.#collections.has(this.#resolve(name));
  }

  collection(name: string): CollectionEngine {
    const resolved = this.#resolve(name);
    const collection = this.#collections.get(resolved);
    if (collection === undefined) throw notFound(`Collection \`${resolved}\` doesn't exist!`);
    return collection;
  }

  createCollection(name: string, spec: CollectionSpec): void {
    if (this.#collections.has(name)) throw alreadyExists(`Collection \`${name}\` already exists!`);
    if (this.#aliases.has(name)) {
      throw badInput(`Can't create collection with name ${name}. Alias with the same name already exists`);
    }
    this.#db.transaction(() => this.#db.insertCollection(name, spec, {}));
    this.#collections.set(name, new EmbeddedCollection({ name, spec, indexes: {}, operations: 0 }, this.#db));
  }

  deleteCollection(name: string): boolean {
    const collection = this.#collections.get(name);
    if (collection === undefined) return false;
    const remaining = this.#aliases.without(name);
    this.#db.transaction(() => {
      this.#db.deleteCollection(name);
      this.#db.saveAliases(remaining);
    });
    this.#aliases.replace(remaining);
    this.#collections.delete(name);
    collection.drop();
    // Its graph's row went with it: its files can go now rather than at the next open.
    readSavedGraphs(this.#db);
    return true;
  }

  updateAliases(actions: readonly AliasAction[]): void {
    const next = this.#aliases.plan(actions, (name) => this.#collections.has(name));
    this.#db.transaction(() => this.#db.saveAliases(next));
    this.#aliases.replace(next);
  }

  listAliases(): AliasDescription[] {
    return this.#aliases.list();
  }

  collectionAliases(collection: string): AliasDescription[] {
    return this.#aliases.of(collection);
  }

  /** An alias's collection name, else the name itself (Qdrant's `resolve_name`). */
  #resolve(name: string): string {
    return this.#aliases.target(name) ?? name;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const collection of this.#collections.values()) collection.close();
    this.#db.close();
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
