/**
 * @module The one in-memory store for tests: PointStore, the hybrid parts calls, the timeline's ordered
 * scroll and the shared-collection calls of st-qdrant-memory's hybrid fork, over Maps, answering as the
 * Qdrant adapter does (the PointStore contract suite runs against both). Failures are injected with hooks (with-store-hooks.ts), not by hand.
 */
import { StoreError } from '../../errors/memory-pool-error.js';
import {
  DENSE_VECTOR,
  type HybridPointStore,
  type QueryOptions,
  SPARSE_VECTOR,
  type SparseVector,
} from '../hybrid-point-store.js';
import type {
  CollectionShape,
  DenseVector,
  PointStore,
  ScoredStorePoint,
  StoredPointId,
  StoredRecord,
  StoreFilter,
} from '../point-store.js';
import type { StHybridStore } from '../st-hybrid/st-hybrid-store.js';
import type { TimelineStore } from '../timeline-store.js';
import { computeCosine } from '../../runtime/cosine-similarity.js';
import { matchFilter } from './match-filter.js';
import { scrollOrdered } from './scroll-ordered.js';
import { type StoreHooks, withStoreHooks } from './with-store-hooks.js';

/** A collection's vectors as Qdrant's create request states them (Cosine only: all the service creates). */
export interface MemoryCollectionLayout {
  /** One unnamed vector of this size, or named dense vectors by name. */
  readonly vectors: number | Readonly<Record<string, number>>;
  /** Sparse vectors by name, with their modifier. */
  readonly sparseVectors?: Readonly<Record<string, 'idf' | 'none'>>;
}

/** A point as the fake holds it; the unnamed vector is under the name "". */
export interface HeldPoint {
  readonly id: StoredPointId;
  readonly vectors: Readonly<Record<string, readonly number[] | SparseVector>>;
  readonly payload: Record<string, unknown>;
}

export interface MemoryPointStore
  extends PointStore,
    HybridPointStore,
    StHybridStore,
    TimelineStore {
  /** Creates a collection of any layout (a SillyTavern or hand-made one); "already exists" is an error. */
  createCollectionWithLayout(name: string, layout: MemoryCollectionLayout): Promise<void>;
  /** Deletes a collection, as SillyTavern's hybrid migration does; a missing one is not an error. */
  deleteCollection(name: string): Promise<void>;
  /** The points of `collection` in id order, as a scroll lists them (empty when it does not exist). */
  heldPoints(collection: string): HeldPoint[];
}

interface MemoryCollection {
  readonly layout: MemoryCollectionLayout;
  readonly points: Map<string, HeldPoint>;
}

const UNNAMED = '';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Qdrant's default `k` for reciprocal rank fusion. */
const RRF_K = 2;

/** Creates an empty store; `hooks` see (and may fail) every call. */
export function createMemoryPointStore(hooks: StoreHooks = {}): MemoryPointStore {
  const collections = new Map<string, MemoryCollection>();

  const existing = (name: string, what: string): MemoryCollection => {
    const collection = collections.get(name);
    if (collection) return collection;
    throw new StoreError(
      'collection_missing',
      `Qdrant could not ${what}: Collection \`${name}\` doesn't exist!.`,
      {
        retryable: true,
      },
    );
  };
  const create = (name: string, layout: MemoryCollectionLayout, existsIsFine: boolean) => {
    if (collections.has(name)) {
      if (existsIsFine) return;
      throw badRequest(`create collection ${name}`, `Collection \`${name}\` already exists!`);
    }
    collections.set(name, { layout, points: new Map() });
  };
  const upsert = (name: string, points: readonly HeldPoint[]) => {
    const collection = existing(name, `upsert into ${name}`);
    // Checked before any write, as Qdrant refuses a batch whole.
    const held = points.map((p) => ({
      key: idKey(p.id, `upsert into ${name}`),
      point: checkVectors(name, collection.layout, p),
    }));
    for (const { key, point } of held) collection.points.set(key, point);
  };
  const ranked = (
    name: string,
    what: string,
    using: string,
    query: readonly number[] | SparseVector,
    options: { limit: number; scoreThreshold?: number; filter?: StoreFilter },
  ): { point: HeldPoint; score: number }[] => {
    const collection = existing(name, what);
    const sparse = !Array.isArray(query);
    if (
      sparse
        ? collection.layout.sparseVectors?.[using] === undefined
        : denseSize(collection.layout, using) === undefined
    ) {
      throw badRequest(what, `Not existing vector name error: ${using}`);
    }
    const candidates = [...collection.points.values()].filter((p) => matchFilter(options.filter, p));
    const score = sparse
      ? sparseScorer(
          candidates,
          using,
          query as SparseVector,
          collection.layout.sparseVectors?.[using] === 'idf',
        )
      : (p: HeldPoint) =>
          cosine(query as readonly number[], p.vectors[using] as readonly number[] | undefined, what);
    return candidates
      .map((point) => ({ point, score: score(point) }))
      .filter((hit) => Number.isFinite(hit.score))
      .filter((hit) => options.scoreThreshold === undefined || hit.score >= options.scoreThreshold)
      .sort((a, b) => b.score - a.score || compareIds(a.point.id, b.point.id))
      .slice(0, options.limit);
  };
  const toScored = (
    hit: { point: HeldPoint; score: number },
    fields?: readonly string[],
  ): ScoredStorePoint => ({
    id: hit.point.id,
    score: hit.score,
    payload: fields ? pick(hit.point.payload, fields) : { ...hit.point.payload },
  });
  const inIdOrder = (collection: MemoryCollection | undefined) =>
    [...(collection?.points.values() ?? [])].sort((a, b) => compareIds(a.id, b.id));

  const store: Omit<MemoryPointStore, 'heldPoints'> = {
    probe: async () => {},
    listCollections: async () => [...collections.keys()],
    describeCollection: async (name) => {
      const collection = collections.get(name);
      return collection ? describeShape(collection) : undefined;
    },
    createCollection: async (name, vectorSize) => create(name, { vectors: vectorSize }, true),
    createHybridCollection: async (name, denseSize) =>
      create(
        name,
        { vectors: { [DENSE_VECTOR]: denseSize }, sparseVectors: { [SPARSE_VECTOR]: 'idf' } },
        true,
      ),
    createCollectionWithLayout: async (name, layout) => create(name, layout, false),
    deleteCollection: async (name) => void collections.delete(name),

    upsertPoints: async (name, points) =>
      upsert(
        name,
        points.map((p) => ({ id: p.id, vectors: { [UNNAMED]: asList(p.vector) }, payload: p.payload })),
      ),
    upsertHybridPoints: async (name, points) =>
      upsert(
        name,
        points.map((p) => ({
          id: p.id,
          vectors: { [DENSE_VECTOR]: asList(p.dense), [SPARSE_VECTOR]: p.sparse },
          payload: p.payload,
        })),
      ),
    upsertNamedVectors: async (name, points) =>
      upsert(
        name,
        points.map((p) => ({
          id: p.id,
          vectors: Object.fromEntries(Object.entries(p.vectors).map(([k, v]) => [k, asList(v)])),
          payload: p.payload,
        })),
      ),

    searchPoints: async (name, search) =>
      ranked(name, `search ${name}`, UNNAMED, search.vector, search).map((hit) => toScored(hit)),
    queryPoints: async (name, query: QueryOptions) =>
      ranked(name, `query ${name}`, query.using, query.query, query).map((hit) =>
        toScored(hit, query.withPayload),
      ),
    queryFused: async (name, fused) => {
      const scores = new Map<string, { point: HeldPoint; score: number }>();
      for (const stage of fused.prefetch) {
        const hits = ranked(name, `query ${name}`, stage.using, stage.query, {
          ...stage,
          ...(fused.filter ? { filter: fused.filter } : {}),
        });
        hits.forEach((hit, position) => {
          const key = idKey(hit.point.id, `query ${name}`);
          const fusedHit = scores.get(key) ?? { point: hit.point, score: 0 };
          fusedHit.score += 1 / (position + RRF_K);
          scores.set(key, fusedHit);
        });
      }
      return [...scores.values()]
        .sort((a, b) => b.score - a.score || compareIds(a.point.id, b.point.id))
        .slice(0, fused.limit)
        .map((hit) => toScored(hit));
    },

    retrievePoints: async (name, ids) => {
      const collection = existing(name, `retrieve from ${name}`);
      return ids.flatMap((id) => {
        const point = collection.points.get(idKey(id, `retrieve from ${name}`));
        return point ? [toRecord(point)] : [];
      });
    },
    scoreDenseVectors: async (name, vector, ids) => {
      const collection = existing(name, `retrieve from ${name}`);
      const cosines = new Map<string, number>();
      for (const id of ids) {
        const dense = collection.points.get(idKey(id, `retrieve from ${name}`))?.vectors[DENSE_VECTOR];
        if (Array.isArray(dense)) cosines.set(String(id), computeCosine(vector, dense as readonly number[]));
      }
      return cosines;
    },
    findHeldSparseTerms: async (name, indices, filter) => {
      const points = [...existing(name, `query ${name}`).points.values()].filter((p) =>
        matchFilter(filter, p),
      );
      const held = new Set<number>();
      for (const point of points) {
        const sparse = point.vectors[SPARSE_VECTOR] as { indices?: readonly number[] } | undefined;
        for (const index of sparse?.indices ?? []) if (indices.includes(index)) held.add(index);
      }
      return held;
    },
    scrollPoints: async (name, scroll) => {
      const matching = inIdOrder(existing(name, `scroll ${name}`)).filter((p) =>
        matchFilter(scroll.filter, p),
      );
      const start =
        scroll.offset === undefined ? 0 : matching.findIndex((p) => compareIds(p.id, scroll.offset!) >= 0);
      const from = start === -1 ? matching.length : start;
      const page = matching.slice(from, from + scroll.limit);
      const keys = scroll.withPayload;
      const records = page
        .map(toRecord)
        .map((record) =>
          keys === undefined
            ? record
            : {
                ...record,
                payload: Object.fromEntries(Object.entries(record.payload).filter(([k]) => keys.includes(k))),
              },
        );
      return { points: records, nextOffset: matching[from + scroll.limit]?.id };
    },
    // Qdrant keeps no index in memory here: every payload key can be ordered by.
    requestFloatIndex: async () => {},
    requestKeywordIndex: async () => {},
    scrollOrdered: async (name, options) =>
      scrollOrdered(
        inIdOrder(existing(name, `scroll ${name}`))
          .filter((p) => matchFilter(options.filter, p))
          .map(toRecord),
        options,
      ),
    countPoints: async (name, filter) =>
      inIdOrder(collections.get(name)).filter((p) => matchFilter(filter, p)).length,
    deletePoints: async (name, selector) => {
      const collection = collections.get(name);
      if (!collection) return;
      if ('ids' in selector) {
        for (const id of selector.ids) collection.points.delete(idKey(id, `delete from ${name}`));
        return;
      }
      for (const [key, point] of collection.points) {
        if (matchFilter(selector.filter, point)) collection.points.delete(key);
      }
    },
  };
  // A test's own reads are not store calls: the hooks never see (or fail) them.
  return { ...withStoreHooks(store, hooks), heldPoints: (name) => inIdOrder(collections.get(name)) };
}

function describeShape(collection: MemoryCollection): CollectionShape {
  const { vectors, sparseVectors = {} } = collection.layout;
  const pointsCount = collection.points.size;
  if (typeof vectors === 'number') {
    return {
      vectorSize: vectors,
      distance: 'Cosine',
      namedVectors: [],
      namedVectorSizes: {},
      sparseVectors: { ...sparseVectors },
      // The fake has no payload indexes; a fresh Qdrant collection reports an empty payload_schema too.
      payloadIndexes: {},
      pointsCount,
    };
  }
  return {
    vectorSize: undefined,
    distance: undefined,
    namedVectors: Object.keys(vectors),
    namedVectorSizes: { ...vectors },
    sparseVectors: { ...sparseVectors },
    payloadIndexes: {},
    pointsCount,
  };
}

function denseSize(layout: MemoryCollectionLayout, name: string): number | undefined {
  if (typeof layout.vectors === 'number') return name === UNNAMED ? layout.vectors : undefined;
  return name === UNNAMED ? undefined : layout.vectors[name];
}

/** Refuses what Qdrant refuses: a vector name the collection lacks, or a dense vector of another size. */
function checkVectors(name: string, layout: MemoryCollectionLayout, point: HeldPoint): HeldPoint {
  for (const [vectorName, vector] of Object.entries(point.vectors)) {
    if (!Array.isArray(vector)) {
      if (layout.sparseVectors?.[vectorName] === undefined) {
        throw badRequest(`upsert into ${name}`, `Not existing vector name error: ${vectorName}`);
      }
      continue;
    }
    const size = denseSize(layout, vectorName);
    if (size === undefined) {
      throw badRequest(
        `upsert into ${name}`,
        `Not existing vector name error: ${vectorName || 'the unnamed vector'}`,
      );
    }
    if (vector.length !== size) {
      throw badRequest(
        `upsert into ${name}`,
        `Vector dimension error: expected dim: ${size}, got ${vector.length}`,
      );
    }
  }
  return { id: canonicalId(point.id), vectors: point.vectors, payload: structuredClone(point.payload) };
}

function toRecord(point: HeldPoint): StoredRecord {
  return { id: point.id, payload: structuredClone(point.payload) };
}

function pick(payload: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((f) => f in payload).map((f) => [f, payload[f]]));
}

/** Qdrant's point ids: an unsigned integer or a UUID (returned lower-case). */
function canonicalId(id: StoredPointId): StoredPointId {
  return typeof id === 'string' ? id.toLowerCase() : id;
}

function idKey(id: StoredPointId, what: string): string {
  if (typeof id === 'number' ? Number.isSafeInteger(id) && id >= 0 : UUID.test(id)) {
    return `${typeof id}:${String(canonicalId(id))}`;
  }
  throw badRequest(
    what,
    `Unable to parse point id ${JSON.stringify(id)}: an unsigned integer or a UUID is expected`,
  );
}

/** Integer ids before UUIDs, each in its own order, as Qdrant scrolls them. */
function compareIds(a: StoredPointId, b: StoredPointId): number {
  if (typeof a !== typeof b) return typeof a === 'number' ? -1 : 1;
  if (typeof a === 'number') return a - (b as number);
  const [x, y] = [String(a).toLowerCase(), String(b).toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Cosine similarity, which Qdrant computes over vectors it normalized on upsert. */
function cosine(query: readonly number[], vector: readonly number[] | undefined, what: string): number {
  if (vector === undefined) return Number.NaN;
  if (query.length !== vector.length) {
    throw badRequest(what, `Vector dimension error: expected dim: ${vector.length}, got ${query.length}`);
  }
  let dot = 0;
  let a = 0;
  let b = 0;
  for (let i = 0; i < query.length; i++) {
    dot += query[i]! * vector[i]!;
    a += query[i]! ** 2;
    b += vector[i]! ** 2;
  }
  return a === 0 || b === 0 ? 0 : dot / Math.sqrt(a * b);
}

/** Sparse dot product; with `idf`, each query dimension weighted by Qdrant's inverse document frequency. */
function sparseScorer(points: readonly HeldPoint[], using: string, query: SparseVector, idf: boolean) {
  const vectorOf = (p: HeldPoint) => p.vectors[using] as SparseVector | undefined;
  const held = points.filter((p) => vectorOf(p) !== undefined).length;
  const weight = (index: number) => {
    if (!idf) return 1;
    const having = points.filter((p) => vectorOf(p)?.indices.includes(index)).length;
    return Math.log((held - having + 0.5) / (having + 0.5) + 1);
  };
  return (p: HeldPoint) => {
    const vector = vectorOf(p);
    if (vector === undefined) return Number.NaN;
    let score = 0;
    let overlap = false;
    query.indices.forEach((index, i) => {
      const at = vector.indices.indexOf(index);
      if (at === -1) return;
      overlap = true;
      score += query.values[i]! * vector.values[at]! * weight(index);
    });
    // Qdrant's sparse search returns only points sharing a dimension with the query.
    return overlap ? score : Number.NaN;
  };
}

function badRequest(what: string, detail: string): StoreError {
  return new StoreError('store_failed', `Qdrant could not ${what}: Wrong input: ${detail} (HTTP 400).`, {
    retryable: false,
  });
}

/** A vector as this fake holds it: dense vectors as plain lists (a writer may hand over its Float32Arrays). */
function asList<V extends SparseVector>(vector: DenseVector | V): readonly number[] | V {
  return ArrayBuffer.isView(vector) ? Array.from(vector) : vector;
}
