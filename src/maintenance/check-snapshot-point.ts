/**
 * @module The checks restore makes of every point line before the first write: an id the store accepts, a
 * payload object, and vectors of the header's layout and sizes. A point the store would refuse halfway
 * through is refused here, with its line, while nothing has been written.
 */
import type { SnapshotHeader, SnapshotPointLine } from './snapshot-format.js';

/** Turns what is wrong with the line into the error naming it (its file, line number and fix). */
export type LineFailure = (what: string, fix?: string) => Error;

/** The vectors the header says each point carries: one unnamed of `size`, or named dense and sparse ones. */
export type SnapshotVectors =
  /** `sparse`: sparse vectors beside it; a point with any writes its dense vector under the name "". */
  | { readonly kind: 'unnamed'; readonly size: number; readonly sparse: ReadonlySet<string> }
  | {
      readonly kind: 'named';
      readonly dense: ReadonlyMap<string, number>;
      readonly sparse: ReadonlySet<string>;
    };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isSize = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

/** The header's vectors, from its layout; a `vectorSize` that disagrees with the layout is refused. */
export function readSnapshotVectors(header: SnapshotHeader, fail: LineFailure): SnapshotVectors {
  if (!isRecord(header.layout)) throw fail(`has the layout ${describeJson(header.layout)}, not an object`);
  const { vectors, sparseVectors } = header.layout;
  const sparse = new Set(isRecord(sparseVectors) ? Object.keys(sparseVectors) : []);
  if (isRecord(vectors) && 'size' in vectors && !isRecord(vectors.size)) {
    if (!isSize(vectors.size))
      throw fail(`has a layout whose vector size is ${JSON.stringify(vectors.size)}`);
    if (header.vectorSize !== vectors.size) {
      throw fail(
        `says vectorSize ${JSON.stringify(header.vectorSize)}, but its layout's vectors are ${vectors.size}-dimensional`,
      );
    }
    return { kind: 'unnamed', size: vectors.size, sparse };
  }
  if (!isRecord(vectors)) throw fail('has a layout without vectors');
  if (header.vectorSize !== null) {
    throw fail(`says vectorSize ${JSON.stringify(header.vectorSize)}, but its layout names its vectors`);
  }
  const dense = new Map<string, number>();
  for (const [name, params] of Object.entries(vectors)) {
    const size = isRecord(params) ? params.size : undefined;
    if (!isSize(size)) throw fail(`has a layout whose vector "${name}" has no size`);
    dense.set(name, size);
  }
  return { kind: 'named', dense, sparse };
}

/** The point line, checked against the header's vectors; throws `fail(...)` naming what is wrong. */
export function checkSnapshotPoint(
  line: unknown,
  vectors: SnapshotVectors,
  fail: LineFailure,
): SnapshotPointLine {
  const point = line as Partial<SnapshotPointLine>;
  const { id } = point;
  const validId =
    typeof id === 'number' ? Number.isSafeInteger(id) && id >= 0 : typeof id === 'string' && UUID.test(id);
  if (typeof id === 'number' && Number.isInteger(id) && id > Number.MAX_SAFE_INTEGER) {
    throw fail(
      `has the point id ${BigInt(id)}: ids above 2^53-1 (${Number.MAX_SAFE_INTEGER}) cannot be read exactly, so memory-pool cannot restore them (an id is an unsigned integer up to that, or a UUID)`,
      "Restore this collection from Qdrant's own snapshot instead.",
    );
  }
  if (!validId) {
    throw fail(
      `has the point id ${JSON.stringify(id) ?? 'undefined'}: an id is an unsigned integer or a UUID`,
    );
  }
  if (point.vector === undefined || point.vector === null) throw fail(`is point ${id} without a vector`);
  if (point.payload === undefined) throw fail(`is point ${id} without a payload`);
  if (!isRecord(point.payload)) {
    throw fail(`is point ${id} whose payload is ${describeJson(point.payload)}, not an object`);
  }
  const vector: unknown = point.vector;
  if (vectors.kind === 'unnamed' && (vectors.sparse.size === 0 || Array.isArray(vector))) {
    checkDense(vector, vectors.size, `point ${id}'s vector`, fail);
  } else if (vectors.kind === 'unnamed') {
    // Export writes the unnamed dense vector as "" beside the sparse ones, as Qdrant reads it back.
    if (!isRecord(vector) || !('' in vector))
      throw fail(
        `is point ${id} whose vector is ${describeJson(vector)}, not a list of ${vectors.size} numbers or {"": [...], sparse...}`,
      );
    for (const [name, value] of Object.entries(vector)) {
      if (name === '') checkDense(value, vectors.size, `point ${id}'s vector`, fail);
      else if (vectors.sparse.has(name)) checkSparse(value, `point ${id}'s sparse vector "${name}"`, fail);
      else throw fail(`is point ${id} with a vector "${name}" that the header's layout does not have`);
    }
  } else {
    if (!isRecord(vector))
      throw fail(`is point ${id} whose vector is ${describeJson(vector)}, not named vectors`);
    for (const [name, value] of Object.entries(vector)) {
      const size = vectors.dense.get(name);
      if (size !== undefined) checkDense(value, size, `point ${id}'s vector "${name}"`, fail);
      else if (vectors.sparse.has(name)) checkSparse(value, `point ${id}'s sparse vector "${name}"`, fail);
      else throw fail(`is point ${id} with a vector "${name}" that the header's layout does not have`);
    }
  }
  return point as SnapshotPointLine;
}

function checkDense(value: unknown, size: number, what: string, fail: LineFailure): void {
  if (!Array.isArray(value) || !value.every((n) => typeof n === 'number' && Number.isFinite(n))) {
    throw fail(`is ${what} that is not a list of ${size} numbers`);
  }
  if (value.length !== size) throw fail(`is ${what} of ${value.length} numbers, the header says ${size}`);
}

function checkSparse(value: unknown, what: string, fail: LineFailure): void {
  const sparse = isRecord(value) ? value : {};
  const { indices, values } = sparse;
  const ok =
    Array.isArray(indices) &&
    Array.isArray(values) &&
    indices.length === values.length &&
    values.every((n) => typeof n === 'number' && Number.isFinite(n));
  if (!ok) throw fail(`is ${what} that is not indices and values of the same length`);
  // What the store refuses (halfway through, after earlier batches were written) is refused here.
  const bad = (indices as unknown[]).find(
    (i) => !Number.isSafeInteger(i) || (i as number) < 0 || (i as number) > MAX_SPARSE_INDEX,
  );
  if (bad !== undefined)
    throw fail(
      `is ${what} with the index ${JSON.stringify(bad)}: indices are integers 0 to ${MAX_SPARSE_INDEX}`,
    );
  if (new Set(indices).size !== indices.length)
    throw fail(`is ${what} that repeats an index: each index appears once`);
}

/** Qdrant keeps sparse indices as unsigned 32-bit integers. */
const MAX_SPARSE_INDEX = 4_294_967_295;

function describeJson(value: unknown): string {
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'an array';
  return value === null ? 'null' : `a ${typeof value}`;
}
