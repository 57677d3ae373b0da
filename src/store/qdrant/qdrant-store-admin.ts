/** @module StoreAdmin over Qdrant's REST API, through the official client: a real Qdrant or the embedded store. */
import type { QdrantClient } from '@qdrant/js-client-rest';
import type { StoredPointId } from '../point-store.js';
import type { CollectionDetails, FullStorePoint, StoreAdmin, StoredVector } from '../store-admin.js';
import type { QdrantPointStoreOptions } from './qdrant-access.js';
import { createQdrantAccess } from './qdrant-access.js';

/** Creates a StoreAdmin that talks to the Qdrant at `url`. */
export function createQdrantStoreAdmin(options: QdrantPointStoreOptions): StoreAdmin {
  // Whole pages of vectors travel here: a slower answer than the service's is still a good one.
  const { client, call } = createQdrantAccess(options, 60_000);
  return {
    readVersion: () =>
      call('read the version', async () => (await client.versionInfo()).version ?? 'unknown'),

    readCollection: (name) =>
      call(`read collection ${name}`, async () => {
        const { exists } = await client.collectionExists(name);
        if (!exists) {
          // collectionExists does not resolve aliases on every Qdrant version; an alias still counts.
          const alias = (await client.getAliases()).aliases.find((a) => a.alias_name === name);
          if (alias === undefined) return undefined;
        }
        const info = await client.getCollection(name);
        const schema = (info.payload_schema ?? {}) as Record<string, { data_type?: string }>;
        const details: CollectionDetails = {
          layout: {
            vectors: info.config.params.vectors,
            ...(info.config.params.sparse_vectors
              ? { sparseVectors: info.config.params.sparse_vectors }
              : {}),
          },
          payloadIndexes: Object.fromEntries(
            Object.entries(schema).map(([field, index]) => [field, index?.data_type ?? 'unknown']),
          ),
          pointsCount: info.points_count ?? 0,
        };
        return details;
      }),

    createCollectionWithLayout: (name, layout) =>
      call(`create collection ${name}`, async () => {
        await client.createCollection(name, {
          vectors: layout.vectors as Parameters<QdrantClient['createCollection']>[1]['vectors'],
          ...(layout.sparseVectors === undefined
            ? {}
            : {
                sparse_vectors: layout.sparseVectors as Parameters<
                  QdrantClient['createCollection']
                >[1]['sparse_vectors'],
              }),
        });
      }),

    scrollFullPoints: (collection, page) =>
      call(`scroll ${collection}`, async () => {
        const result = await client.scroll(collection, {
          limit: page.limit,
          with_payload: true,
          with_vector: true,
          ...(page.offset === undefined ? {} : { offset: page.offset }),
        });
        const next = result.next_page_offset;
        return {
          points: result.points.map(
            (p): FullStorePoint => ({
              id: p.id,
              vector: (p.vector ?? []) as StoredVector,
              payload: p.payload ?? {},
            }),
          ),
          nextOffset: typeof next === 'string' || typeof next === 'number' ? next : undefined,
        };
      }),

    upsertFullPoints: (collection, points) =>
      call(`upsert into ${collection}`, async () => {
        if (points.length === 0) return;
        await client.upsert(collection, {
          wait: true,
          points: points.map((p) => ({
            id: p.id as StoredPointId,
            vector: p.vector as number[],
            payload: p.payload,
          })),
        });
      }),

    deleteCollection: (name) =>
      call(`delete collection ${name}`, async () => {
        const { exists } = await client.collectionExists(name);
        if (exists) await client.deleteCollection(name);
      }),

    listAliases: () =>
      call('list aliases', async () =>
        (await client.getAliases()).aliases.map((a) => ({
          alias: a.alias_name,
          collection: a.collection_name,
        })),
      ),

    setAlias: (alias, collection) =>
      call(`point alias ${alias} at ${collection}`, async () => {
        const existing = (await client.getAliases()).aliases.some((a) => a.alias_name === alias);
        await client.updateCollectionAliases({
          actions: [
            ...(existing ? [{ delete_alias: { alias_name: alias } }] : []),
            { create_alias: { collection_name: collection, alias_name: alias } },
          ],
        });
      }),
  };
}
