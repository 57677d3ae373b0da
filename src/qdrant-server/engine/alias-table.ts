/**
 * @module Collection aliases (qdrant-hybrid.md §4): alias → collection, changed by batches of create, delete and
 * rename actions with Qdrant's checks (`lib/storage/src/content_manager/toc/collection_meta_ops.rs::update_aliases`,
 * `alias_mapping.rs`). A batch is applied to a copy and swapped in whole, so a failing action changes nothing.
 */
import { alreadyExists, notFound } from '../qdrant-error.js';
import type { AliasAction, AliasDescription } from './engine-api.js';

/** Byte order, as collection names are listed. */
function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** The alias mapping of one store. */
export class AliasTable {
  #aliases: Map<string, string>;

  constructor(initial: ReadonlyMap<string, string>) {
    this.#aliases = new Map(initial);
  }

  /** The collection an alias names, or undefined. */
  target(alias: string): string | undefined {
    return this.#aliases.get(alias);
  }

  has(alias: string): boolean {
    return this.#aliases.has(alias);
  }

  /** The mapping after `actions`, without changing this table; throws the first failing action's error. */
  plan(actions: readonly AliasAction[], collectionExists: (name: string) => boolean): Map<string, string> {
    const next = new Map(this.#aliases);
    for (const action of actions) {
      if (action.kind === 'create') {
        if (!collectionExists(action.collection)) {
          throw notFound(`Collection \`${action.collection}\` doesn't exist!`);
        }
        if (collectionExists(action.alias))
          throw alreadyExists(`Collection \`${action.alias}\` already exists!`);
        // An existing alias of that name is re-pointed, as Qdrant's map insert does.
        next.set(action.alias, action.collection);
      } else if (action.kind === 'delete') {
        // Deleting an alias that does not exist is not an error.
        next.delete(action.alias);
      } else {
        const collection = next.get(action.from);
        if (collection === undefined) throw notFound(`Alias ${action.from} does not exists!`);
        // Stricter than Qdrant, whose rename skips create's check: an alias named as a collection would
        // shadow it (names resolve to aliases first), sending that collection's reads and writes elsewhere.
        if (collectionExists(action.to)) throw alreadyExists(`Collection \`${action.to}\` already exists!`);
        next.delete(action.from);
        next.set(action.to, collection);
      }
    }
    return next;
  }

  /** Swaps in a mapping made by `plan` (after it is persisted). */
  replace(next: Map<string, string>): void {
    this.#aliases = next;
  }

  /** The mapping without the aliases of `collection` (a deleted collection takes its aliases along). */
  without(collection: string): Map<string, string> {
    return new Map([...this.#aliases].filter(([, target]) => target !== collection));
  }

  /** Every alias, by collection then alias name. */
  list(): AliasDescription[] {
    return [...this.#aliases]
      .map(([alias_name, collection_name]) => ({ alias_name, collection_name }))
      .sort(
        (a, b) =>
          compareBytes(a.collection_name, b.collection_name) || compareBytes(a.alias_name, b.alias_name),
      );
  }

  /** The aliases whose target is `collection`. */
  of(collection: string): AliasDescription[] {
    return this.list().filter((alias) => alias.collection_name === collection);
  }

  get all(): ReadonlyMap<string, string> {
    return this.#aliases;
  }
}
