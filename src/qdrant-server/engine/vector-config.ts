/**
 * @module A collection's vector names: the unnamed or named dense vectors and the sparse ones, with Qdrant's
 * checks and preparation of a point's vectors and of query vectors (qdrant-hybrid.md §1, §2).
 */
import { badInput } from '../qdrant-error.js';
import type {
  CollectionSpec,
  DenseVectorInput,
  NamedVectorsInput,
  PointInput,
  SparseVectorInput,
  SparseVectorParams,
  VectorInput,
  VectorParams,
} from './engine-api.js';
import { prepareVector } from './f32.js';
import type { PointVectors, SparseVectorData } from './point-table.js';

const NO_VECTORS: PointVectors = { dense: new Map(), sparse: new Map() };

/** Whether a value is a dense vector: a JSON array, or a Float32Array posted by a caller in this process. */
export function isDenseInput(vector: unknown): vector is DenseVectorInput {
  return Array.isArray(vector) || vector instanceof Float32Array;
}

/** Whether a dense vector's f32 values live on disk (Qdrant's `on_disk: true` in its params), not in RAM. */
export function isOnDisk(params: VectorParams): boolean {
  return params.extras.on_disk === true;
}

/** Whether a vector input is sparse (`{indices, values}`) rather than a dense array. */
export function isSparseInput(vector: VectorInput): vector is SparseVectorInput {
  return !isDenseInput(vector);
}

/** The vector names of one collection. */
export class VectorConfig {
  /** Dense vectors by name; the unnamed one is `""`. */
  readonly dense = new Map<string, VectorParams>();
  readonly sparse = new Map<string, SparseVectorParams>();
  /** true when the dense vectors were configured as a map of names (info then reports that map). */
  readonly named: boolean;

  constructor(spec: CollectionSpec) {
    const named = spec.namedVectors ?? {};
    this.named = spec.vectors === null && Object.keys(named).length > 0;
    this.update(spec);
  }

  /** Takes a patched spec's params (same names and sizes: a patch changes settings, not the vectors' shape). */
  update(spec: CollectionSpec): void {
    const named = spec.namedVectors ?? {};
    this.dense.clear();
    for (const [name, params] of spec.vectors === null
      ? Object.entries(named)
      : [['', spec.vectors] as const]) {
      this.dense.set(name, params);
    }
    this.sparse.clear();
    for (const [name, params] of Object.entries(spec.sparseVectors ?? {})) this.sparse.set(name, params);
  }

  /** The dense params of `name`; 400 `Not existing vector name error: NAME` otherwise. */
  denseParams(name: string): VectorParams {
    const params = this.dense.get(name);
    if (params !== undefined) return params;
    if (this.sparse.has(name)) throw wrongSparse();
    throw notExistingVector(name);
  }

  /** The sparse params of `name`, with the same errors. */
  sparseParams(name: string): SparseVectorParams {
    const params = this.sparse.get(name);
    if (params !== undefined) return params;
    if (this.dense.has(name)) throw wrongSparse();
    throw notExistingVector(name);
  }

  /** Checks and prepares a point's vectors: f32, Cosine-normalized, sparse indices sorted. */
  preparePoint(vector: PointInput['vector']): PointVectors {
    if (vector === null) return NO_VECTORS;
    if (isDenseInput(vector)) {
      const params = this.dense.get('');
      if (params === undefined) throw notExistingVector('');
      checkDimension(params, vector);
      return {
        dense: new Map([['', prepareVector(vector, params.distance)]]),
        sparse: new Map(),
      };
    }
    const dense = new Map<string, Float32Array>();
    const sparse = new Map<string, SparseVectorData>();
    for (const [name, value] of Object.entries(vector as NamedVectorsInput)) {
      if (isSparseInput(value)) {
        this.sparseParams(name);
        sparse.set(name, prepareSparse(value));
      } else {
        const params = this.denseParams(name);
        checkDimension(params, value, name);
        dense.set(name, prepareVector(value, params.distance));
      }
    }
    return { dense, sparse };
  }

  /** Checks and prepares a dense query vector for `name` the way stored vectors were prepared. */
  prepareDenseQuery(name: string, vector: DenseVectorInput): Float32Array {
    const params = this.denseParams(name);
    checkDimension(params, vector);
    return prepareVector(vector, params.distance);
  }
}

/** Sorts by index (Qdrant stores and scores sparse vectors sorted) and rounds the weights to f32. */
export function prepareSparse(vector: SparseVectorInput): SparseVectorData {
  if (vector.indices.length !== vector.values.length) {
    throw badInput('Sparse vector indices and values must be the same length');
  }
  const order = vector.indices
    .map((_, i) => i)
    .sort((a, b) => (vector.indices[a] as number) - (vector.indices[b] as number));
  const indices = new Uint32Array(order.length);
  const values = new Float32Array(order.length);
  order.forEach((from, to) => {
    indices[to] = vector.indices[from] as number;
    values[to] = vector.values[from] as number;
  });
  for (let i = 1; i < indices.length; i++) {
    if (indices[i] === indices[i - 1]) throw badInput('Sparse vector indices must be unique');
  }
  return { indices, values };
}

/** Dimension check; named vectors add ` for vector 'NAME'` at upsert (`src/common/validate_vectors.rs`). */
function checkDimension(params: VectorParams, vector: DenseVectorInput, name?: string): void {
  if (vector.length === params.size) return;
  const suffix = name === undefined ? '' : ` for vector '${name}'`;
  throw badInput(`Vector dimension error: expected dim: ${params.size}, got ${vector.length}${suffix}`);
}

/** 400 `Not existing vector name error: NAME`. */
export function notExistingVector(name: string) {
  return badInput(`Not existing vector name error: ${name}`);
}

/** A dense vector sent for a sparse name or the reverse (`OperationError::WrongSparse`). */
function wrongSparse() {
  return badInput('Wrong usage of sparse vectors');
}
