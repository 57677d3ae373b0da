/**
 * @module Sends upserts to the store in slices (slice-upsert.ts): over REST as JSON, each waited for, or, when
 * the embedded store runs in this process, posted to it all at once with the vectors packed in one Float32Array
 * per slice (no JSON written here or parsed there: for a 3072-d model, most of the chunk writer's own CPU time).
 */
import { setMaxListeners } from 'node:events';
import type { QdrantClient } from '@qdrant/js-client-rest';
import type { SparseVector } from '../hybrid-point-store.js';
import type { DenseVector, StoredPointId } from '../point-store.js';
import { asWireArray, sliceUpsert } from './slice-upsert.js';

/** A point's vectors: the unnamed dense vector, or dense and sparse vectors by name. */
export type PointVectors = DenseVector | Readonly<Record<string, DenseVector | SparseVector>>;

/** A point to upsert, whatever the collection's layout. */
export interface PointToUpsert {
  readonly id: StoredPointId;
  readonly vectors: PointVectors;
  readonly payload: Record<string, unknown>;
}

/** Points as posted to a store in this process (the embedded store's UpsertBatch, which it mirrors). */
export interface PostedBatch {
  readonly ids: readonly StoredPointId[];
  /** Dense vectors are views into one buffer per batch, which the store's thread takes over. */
  readonly vectors: readonly (Float32Array | Readonly<Record<string, Float32Array | SparseVector>>)[];
  /** The payloads as one JSON array, read there as a REST body's are. */
  readonly payloads: string;
}

/**
 * The embedded store's upsert without REST (its QdrantServer.upsert): as `PUT /points?wait=true`, rejected
 * with the route's `status` and Qdrant's message on a refusal, without a status when the store is gone, and
 * with an `AbortError` when `signal` aborted before the store began the batch (then nothing of it is written).
 */
export interface PostedUpserts {
  upsert(collection: string, batch: PostedBatch, signal?: AbortSignal): Promise<void>;
}

/** Upserts `points` into `collection`, slice after slice. */
export type SendUpserts = (collection: string, points: readonly PointToUpsert[]) => Promise<void>;

/**
 * Sends over `posted` when given (the embedded store in this process), else over REST with `client`. Over REST
 * each slice waits for the last (its JSON is written and parsed in one block of each event loop). Posted, the
 * slices go at once: the store's thread applies them one after another in the order sent, one per turn of its
 * loop (serve-store-thread.ts), so a batch no longer pays a round trip per slice through this thread's busy
 * loop (an import's ~14 slices of part vectors took 350-480 ms to store, ~60 ms of it the store's own work).
 */
export function createUpsertSender(
  client: QdrantClient,
  posted: PostedUpserts | undefined,
  timeoutMs: number,
): SendUpserts {
  return async (collection, points) => {
    const slices = sliceUpsert(points, (p) => countComponents(p.vectors));
    if (posted !== undefined) {
      await postSlices(posted, collection, slices, timeoutMs);
      return;
    }
    for (const slice of slices) {
      await client.upsert(collection, {
        wait: true,
        points: slice.map((p) => ({ id: p.id, vector: toWireVectors(p.vectors), payload: p.payload })),
      });
    }
  };
}

/** How a posted slice ended. */
type SliceAnswer = 'applied' | 'cancelled' | { readonly error: unknown };

/**
 * Posts every slice, then waits until each is answered (applied, refused or cancelled): a failure is reported
 * only once no slice of this call is left to apply, so nothing the caller does after it (a forget's delete, a
 * retry) can be overtaken by a slice still on its way. Each slice has `timeoutMs` from the answer before it,
 * as when each was sent once the last was answered; past that, the slices the store has not begun are
 * cancelled, and one it had begun finishes (its answer is awaited, and the error says what was applied).
 */
async function postSlices(
  posted: PostedUpserts,
  collection: string,
  slices: readonly (readonly PointToUpsert[])[],
  timeoutMs: number,
): Promise<void> {
  const cancel = new AbortController();
  // One abort listener per slice, by design: past Node's default of 10 it would print a leak warning into the
  // service's log on every large batch (an import's parts batch is ~14 slices).
  setMaxListeners(Math.max(10, slices.length), cancel.signal);
  const answers = slices.map((slice) =>
    posted.upsert(collection, packBatch(slice), cancel.signal).then(
      (): SliceAnswer => 'applied',
      (error: unknown): SliceAnswer =>
        cancel.signal.aborted && (error as Error | undefined)?.name === 'AbortError'
          ? 'cancelled'
          : { error },
    ),
  );
  let timedOut = false;
  for (const answer of answers) {
    if (await answersWithin(answer, timeoutMs)) continue;
    timedOut = true;
    cancel.abort();
    break;
  }
  const answered = await Promise.all(answers);
  const failures = answered.filter((answer) => typeof answer === 'object');
  // The store's own answer (a 400 naming the bad field) says more than a timeout, which only says "slow".
  const refusal = failures.find(
    (failure) => typeof (failure.error as { status?: unknown })?.status === 'number',
  );
  if (refusal !== undefined) throw refusal.error;
  if (timedOut && answered.some((answer) => answer !== 'applied')) {
    throw new Error(describeTimeout(timeoutMs, slices, answered));
  }
  if (failures[0] !== undefined) throw failures[0].error;
}

/** What a timed-out call left behind, so the caller knows: rewriting the same ids is safe either way. */
function describeTimeout(
  timeoutMs: number,
  slices: readonly (readonly PointToUpsert[])[],
  answered: readonly SliceAnswer[],
): string {
  const applied = answered.flatMap((answer, i) => (answer === 'applied' ? [slices[i]!.length] : []));
  const points = applied.reduce((sum, n) => sum + n, 0);
  const total = slices.reduce((sum, slice) => sum + slice.length, 0);
  return (
    `the embedded store did not answer an upsert within ${timeoutMs} ms: ${applied.length} of ` +
    `${slices.length} slices (${points} of ${total} points) were applied, the rest cancelled or refused; ` +
    'nothing of this upsert is left to land, and sending it again rewrites the same ids'
  );
}

/** The slice as posted: every dense vector copied into one new buffer (the only copy made). */
export function packBatch(points: readonly PointToUpsert[]): PostedBatch {
  let size = 0;
  for (const p of points) forEachDense(p.vectors, (v) => (size += v.length));
  const packed = new Float32Array(size);
  let offset = 0;
  const pack = (vector: DenseVector): Float32Array => {
    packed.set(vector, offset);
    offset += vector.length;
    return packed.subarray(offset - vector.length, offset);
  };
  return {
    ids: points.map((p) => p.id),
    vectors: points.map((p) =>
      isDense(p.vectors)
        ? pack(p.vectors)
        : Object.fromEntries(Object.entries(p.vectors).map(([name, v]) => [name, isDense(v) ? pack(v) : v])),
    ),
    payloads: JSON.stringify(points.map((p) => p.payload)),
  };
}

/** The numbers a point's vectors put in a request (a sparse vector's indices and values alike). */
function countComponents(vectors: PointVectors): number {
  if (isDense(vectors)) return vectors.length;
  return Object.values(vectors).reduce((sum, v) => sum + (isDense(v) ? v.length : 2 * v.indices.length), 0);
}

function forEachDense(vectors: PointVectors, visit: (vector: DenseVector) => void): void {
  if (isDense(vectors)) visit(vectors);
  else for (const v of Object.values(vectors)) if (isDense(v)) visit(v);
}

function toWireVectors(
  vectors: PointVectors,
): number[] | Record<string, number[] | { indices: number[]; values: number[] }> {
  if (isDense(vectors)) return asWireArray(vectors);
  return Object.fromEntries(
    Object.entries(vectors).map(([name, v]) => [
      name,
      isDense(v) ? asWireArray(v) : { indices: asWireArray(v.indices), values: asWireArray(v.values) },
    ]),
  );
}

function isDense(vector: unknown): vector is DenseVector {
  return Array.isArray(vector) || vector instanceof Float32Array;
}

/** Whether `work` settles within `timeoutMs` (a posted slice's answer never rejects: see postSlices). */
async function answersWithin(work: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([work.then(() => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}
