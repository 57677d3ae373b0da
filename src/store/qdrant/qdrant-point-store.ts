/** @module PointStore over Qdrant's REST API, through the official client: a real Qdrant or the embedded store. */
import type { QdrantClient } from '@qdrant/js-client-rest';
import {
  DENSE_VECTOR,
  type HybridStorePoint,
  type QueryOptions,
  SPARSE_VECTOR,
  type SparseVector,
} from '../hybrid-point-store.js';
import type {
  CollectionShape,
  ScoredStorePoint,
  SearchOptions,
  ScrollOptions,
  StoreFilter,
  StorePoint,
  StoredPointId,
  StoredRecord,
} from '../point-store.js';
import type { MemoryStore } from '../memory-store.js';
import type { StHybridStore } from '../st-hybrid/st-hybrid-store.js';
import type { OrderedRecord } from '../timeline-store.js';
import { createQdrantAccess, type QdrantPointStoreOptions } from './qdrant-access.js';
import { findHeldSparseTerms, type PostedHeldTerms } from './find-held-sparse-terms.js';
import { type PostedDenseCosines, scoreDenseVectors } from './score-dense-vectors.js';
import { createPointReader, type PostedReads } from './read-points-posted.js';
import { createUpsertSender, type PostedUpserts } from './send-upserts.js';

/** Per-request timeout of the service's store client (the data commands pass their own). */
const DEFAULT_TIMEOUT_MS = 10_000;

/** Creates a PointStore that talks to the Qdrant at `url` (upserts over `posted` when given). */
export function createQdrantPointStore(
  options: QdrantPointStoreOptions & {
    /** The embedded store in this process: upserts are posted to it instead of sent as JSON (send-upserts.ts). */
    readonly posted?: (PostedUpserts & PostedHeldTerms & PostedDenseCosines & PostedReads) | undefined;
  },
): MemoryStore & StHybridStore {
  const { client, call } = createQdrantAccess(options, DEFAULT_TIMEOUT_MS);
  const { posted } = options;
  const sendUpserts = createUpsertSender(client, options.posted, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  // Only when asked: Qdrant's default (in RAM) is left alone otherwise.
  const onDisk = options.vectorsOnDisk === true ? { on_disk: true } : {};
  const readPoints = createPointReader(posted, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  /** For deletes and counts, a collection that was never created simply holds nothing. */
  const orWhenMissing = async <T>(fallback: T, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if ((error as { status?: number }).status === 404) return fallback;
      throw error;
    }
  };
  const requestIndex = (collection: string, key: string, type: 'float' | 'keyword') =>
    call(`index ${collection}.${key}`, async () => {
      // Not waited for: on a big collection the build takes a while, and nobody should wait on it.
      await orWhenMissing(undefined, () =>
        client.createPayloadIndex(collection, { field_name: key, field_schema: type, wait: false }),
      );
    });
  return {
    probe: () => call('list collections', async () => void (await client.getCollections())),

    listCollections: () =>
      call('list collections', async () => (await client.getCollections()).collections.map((c) => c.name)),

    describeCollection: (name) =>
      call(`read collection ${name}`, async () => {
        const { exists } = await client.collectionExists(name);
        if (!exists) return undefined;
        return describeShape(await client.getCollection(name));
      }),

    createCollection: (name, vectorSize) =>
      call(`create collection ${name}`, async () => {
        try {
          await client.createCollection(name, {
            vectors: { size: vectorSize, distance: 'Cosine', ...onDisk },
          });
        } catch (error) {
          // Two writers racing to create the same collection: the loser's 409 means the collection is there.
          if ((error as { status?: number }).status === 409) return;
          throw error;
        }
      }),

    createHybridCollection: (name, denseSize) =>
      call(`create collection ${name}`, async () => {
        try {
          await client.createCollection(name, {
            vectors: { [DENSE_VECTOR]: { size: denseSize, distance: 'Cosine', ...onDisk } },
            sparse_vectors: { [SPARSE_VECTOR]: { modifier: 'idf' } },
          });
        } catch (error) {
          if ((error as { status?: number }).status === 409) return;
          throw error;
        }
      }),

    deleteCollection: (name) =>
      call(`delete collection ${name}`, () =>
        orWhenMissing(undefined, async () => void (await client.deleteCollection(name))),
      ),

    upsertHybridPoints: (collection, points: readonly HybridStorePoint[]) =>
      call(`upsert into ${collection}`, () =>
        sendUpserts(
          collection,
          points.map((p) => ({
            id: p.id,
            vectors: { [DENSE_VECTOR]: p.dense, [SPARSE_VECTOR]: p.sparse },
            payload: p.payload,
          })),
        ),
      ),

    queryPoints: (collection, query: QueryOptions) =>
      call(`query ${collection}`, async () => {
        const vector = query.query;
        const body = {
          query: Array.isArray(vector)
            ? [...(vector as readonly number[])]
            : {
                indices: [...(vector as { indices: readonly number[] }).indices],
                values: [...(vector as { values: readonly number[] }).values],
              },
          using: query.using,
          limit: query.limit,
          with_payload: query.withPayload ? [...query.withPayload] : true,
          ...(query.scoreThreshold === undefined ? {} : { score_threshold: query.scoreThreshold }),
          ...(query.filter === undefined ? {} : { filter: query.filter }),
        };
        const result = await readPoints(collection, 'query', body, () => client.query(collection, body));
        return result.points.map(
          (hit): ScoredStorePoint => ({ id: hit.id, score: hit.score, payload: hit.payload ?? {} }),
        );
      }),

    findHeldSparseTerms: (collection, indices, filter) =>
      call(`query ${collection}`, () =>
        findHeldSparseTerms(client, options.posted, collection, indices, filter),
      ),

    upsertNamedVectors: (collection, points) =>
      call(`upsert into ${collection}`, () =>
        sendUpserts(
          collection,
          points.map((p) => ({ id: p.id, vectors: p.vectors, payload: p.payload })),
        ),
      ),

    queryFused: (collection, fused) =>
      call(`query ${collection}`, async () => {
        const result = await client.query(collection, {
          prefetch: fused.prefetch.map((stage) => ({
            query: toWireVector(stage.query),
            using: stage.using,
            limit: stage.limit,
            ...(stage.scoreThreshold === undefined ? {} : { score_threshold: stage.scoreThreshold }),
          })),
          query: { fusion: 'rrf' },
          limit: fused.limit,
          with_payload: true,
          ...(fused.filter === undefined ? {} : { filter: fused.filter }),
        });
        return result.points.map(
          (hit): ScoredStorePoint => ({ id: hit.id, score: hit.score, payload: hit.payload ?? {} }),
        );
      }),

    retrievePoints: (collection, ids) =>
      call(`retrieve from ${collection}`, async () => {
        if (ids.length === 0) return [];
        const body = { ids: [...(ids as StoredPointId[])], with_payload: true, with_vector: false };
        const records = await readPoints(collection, 'retrieve', body, () =>
          client.retrieve(collection, body),
        );
        return records.map((p): StoredRecord => ({ id: p.id, payload: p.payload ?? {} }));
      }),

    scoreDenseVectors: (collection, vector, ids) =>
      call(`retrieve from ${collection}`, () =>
        scoreDenseVectors(client, options.posted, collection, vector, ids),
      ),

    upsertPoints: (collection, points: readonly StorePoint[]) =>
      call(`upsert into ${collection}`, () =>
        sendUpserts(
          collection,
          points.map((p) => ({ id: p.id, vectors: p.vector, payload: p.payload })),
        ),
      ),

    searchPoints: (collection, search: SearchOptions) =>
      call(`search ${collection}`, async () => {
        const body = {
          vector: [...search.vector],
          limit: search.limit,
          // The client's defaults, written out: the posted read gets the body REST would.
          offset: 0,
          ...(search.scoreThreshold === undefined ? {} : { score_threshold: search.scoreThreshold }),
          ...(search.filter === undefined ? {} : { filter: search.filter }),
          with_payload: true,
          with_vector: false,
        };
        const hits = await readPoints(collection, 'search', body, () => client.search(collection, body));
        return hits.map(
          (hit): ScoredStorePoint => ({ id: hit.id, score: hit.score, payload: hit.payload ?? {} }),
        );
      }),

    scrollPoints: (collection, scroll: ScrollOptions) =>
      call(`scroll ${collection}`, async () => {
        const body = {
          limit: scroll.limit,
          with_payload: scroll.withPayload ? [...scroll.withPayload] : true,
          with_vector: false,
          ...(scroll.filter === undefined ? {} : { filter: scroll.filter }),
          ...(scroll.offset === undefined ? {} : { offset: scroll.offset }),
        };
        const page = await readPoints(collection, 'scroll', body, () => client.scroll(collection, body));
        const next = page.next_page_offset;
        return {
          points: page.points.map((p): StoredRecord => ({ id: p.id, payload: p.payload ?? {} })),
          nextOffset: typeof next === 'string' || typeof next === 'number' ? next : undefined,
        };
      }),

    requestFloatIndex: (collection, key) => requestIndex(collection, key, 'float'),
    requestKeywordIndex: (collection, key) => requestIndex(collection, key, 'keyword'),

    scrollOrdered: (collection, scroll) =>
      call(`scroll ${collection}`, async () => {
        const page = await orWhenMissing({ points: [] }, () =>
          client.scroll(collection, {
            limit: scroll.limit,
            with_payload: true,
            with_vector: false,
            order_by: {
              key: scroll.key,
              direction: scroll.direction,
              ...(scroll.startFrom === undefined ? {} : { start_from: scroll.startFrom }),
            },
            ...(scroll.filter === undefined ? {} : { filter: scroll.filter }),
          }),
        );
        return page.points.map(
          (p): OrderedRecord => ({
            id: p.id,
            payload: p.payload ?? {},
            orderValue: typeof p.order_value === 'number' ? p.order_value : Number(p.payload?.[scroll.key]),
          }),
        );
      }),

    countPoints: (collection, filter?: StoreFilter) =>
      call(`count ${collection}`, async () => {
        const body = { exact: true, ...(filter ? { filter } : {}) };
        const result = await orWhenMissing({ count: 0 }, () =>
          readPoints(collection, 'count', body, () => client.count(collection, body)),
        );
        return result.count;
      }),

    deletePoints: (collection, selector) =>
      call(`delete from ${collection}`, async () => {
        const points =
          'ids' in selector
            ? { points: [...(selector.ids as StoredPointId[])] }
            : { filter: selector.filter };
        await orWhenMissing(undefined, () => client.delete(collection, { wait: true, ...points }));
      }),
  };
}

type CollectionInfo = Awaited<ReturnType<QdrantClient['getCollection']>>;

/** A dense list or a sparse vector, as the REST API takes it (fresh arrays: the client may not keep readonly ones). */
function toWireVector(
  vector: readonly number[] | SparseVector,
): number[] | { indices: number[]; values: number[] } {
  return isSparse(vector) ? { indices: [...vector.indices], values: [...vector.values] } : [...vector];
}

function isSparse(vector: readonly number[] | SparseVector): vector is SparseVector {
  return !Array.isArray(vector);
}

function describeShape(info: CollectionInfo): CollectionShape {
  const vectors = info.config.params.vectors as unknown;
  const pointsCount = info.points_count ?? 0;
  const schema = (info.payload_schema ?? {}) as Record<string, { data_type?: string }>;
  const payloadIndexes = Object.fromEntries(
    Object.entries(schema).map(([field, index]) => [field, index?.data_type ?? 'unknown']),
  );
  const sparse = (info.config.params.sparse_vectors ?? {}) as Record<string, { modifier?: string | null }>;
  const sparseVectors = Object.fromEntries(
    Object.entries(sparse).map(([name, params]) => [name, params?.modifier ?? 'none']),
  );
  if (vectors && typeof vectors === 'object' && 'size' in vectors) {
    const single = vectors as { size: number; distance: string };
    return {
      vectorSize: single.size,
      distance: single.distance,
      namedVectors: [],
      namedVectorSizes: {},
      sparseVectors,
      payloadIndexes,
      pointsCount,
    };
  }
  const named = (vectors && typeof vectors === 'object' ? vectors : {}) as Record<string, { size?: number }>;
  const namedVectorSizes = Object.fromEntries(
    Object.entries(named).flatMap(([name, params]) =>
      typeof params?.size === 'number' ? [[name, params.size]] : [],
    ),
  );
  return {
    vectorSize: undefined,
    distance: undefined,
    namedVectors: Object.keys(named),
    namedVectorSizes,
    sparseVectors,
    payloadIndexes,
    pointsCount,
  };
}
