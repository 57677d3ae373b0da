/** @module What the embedded store's thread and the thread that started it say to each other. */
import type { DenseCosinesRequest } from '../http/posted-dense-cosines.js';
import type { HeldTermsRequest } from '../http/posted-held-terms.js';
import type { PointReadRequest } from '../http/posted-reads.js';
import type { UpsertBatch } from '../http/posted-upsert.js';

/** An error as it crosses threads: structured clone drops an Error's `code` and class, which callers read. */
export interface ErrorRecord {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
  /** e.g. EADDRINUSE: what `serve` and `qdrant` turn into a hint. */
  readonly code?: string;
  /** A QdrantError's HTTP status (a posted upsert's failure), which the store client maps as a REST answer's. */
  readonly status?: number;
}

/** The store thread's options: startQdrantServer's, less the logger (the thread posts its lines instead). */
export interface StoreThreadSettings {
  readonly dataDir: string;
  readonly host?: string | undefined;
  readonly port?: number | undefined;
  readonly apiKey?: string | undefined;
  readonly readOnlyApiKey?: string | undefined;
  readonly corsOrigins?: readonly string[] | undefined;
}

/** From the store thread. */
export type StoreThreadMessage =
  | { readonly kind: 'listening'; readonly url: string; readonly port: number }
  | { readonly kind: 'start-failed'; readonly error: ErrorRecord }
  | {
      readonly kind: 'log';
      readonly level: 'error' | 'warn' | 'info';
      readonly fields: Record<string, unknown>;
      readonly message: string;
    }
  | { readonly kind: 'closed' }
  | { readonly kind: 'close-failed'; readonly error: ErrorRecord }
  | { readonly kind: 'upserted'; readonly id: number }
  | { readonly kind: 'upsert-failed'; readonly id: number; readonly error: ErrorRecord }
  /** A cancelled upsert the thread had not begun: dropped, nothing of it written. */
  | { readonly kind: 'upsert-cancelled'; readonly id: number }
  | { readonly kind: 'held-terms-found'; readonly id: number; readonly held: readonly number[] }
  | { readonly kind: 'held-terms-failed'; readonly id: number; readonly error: ErrorRecord }
  | { readonly kind: 'dense-cosines-found'; readonly id: number; readonly cosines: readonly [string, number][] }
  | { readonly kind: 'dense-cosines-failed'; readonly id: number; readonly error: ErrorRecord }
  | { readonly kind: 'read-done'; readonly id: number; readonly result: unknown }
  | { readonly kind: 'read-failed'; readonly id: number; readonly error: ErrorRecord };

/** To the store thread: stop listening, answer what is open, close the engine (which flushes). */
export interface StoreThreadClose {
  readonly kind: 'close';
}

/** To the store thread: apply this upsert (QdrantServer.upsert) and answer `upserted` or `upsert-failed` with `id`. */
export interface StoreThreadUpsert {
  readonly kind: 'upsert';
  readonly id: number;
  readonly collection: string;
  readonly batch: UpsertBatch;
}

/**
 * To the store thread: drop upsert `id` if it has not begun (answered `upsert-cancelled`); one already applied
 * or refused was answered so before this arrives, and the cancel is ignored.
 */
export interface StoreThreadCancelUpsert {
  readonly kind: 'cancel-upsert';
  readonly id: number;
}

/**
 * To the store thread: which sparse dimensions are held (QdrantServer.heldTerms); answered `held-terms-found`
 * (or `held-terms-failed`) with `id`.
 */
export interface StoreThreadHeldTerms {
  readonly kind: 'held-terms';
  readonly id: number;
  readonly collection: string;
  readonly request: HeldTermsRequest;
}

/**
 * To the store thread: the query's cosine with some points' dense vectors (QdrantServer.denseCosines); answered
 * `dense-cosines-found` (or `dense-cosines-failed`) with `id`.
 */
export interface StoreThreadDenseCosines {
  readonly kind: 'dense-cosines';
  readonly id: number;
  readonly collection: string;
  readonly request: DenseCosinesRequest;
}

/** To the store thread: a point read (QdrantServer.read); answered `read-done` (or `read-failed`) with `id`. */
export interface StoreThreadRead {
  readonly kind: 'read';
  readonly id: number;
  readonly collection: string;
  readonly request: PointReadRequest;
}

/** To the store thread. */
export type StoreThreadRequest =
  | StoreThreadClose
  | StoreThreadUpsert
  | StoreThreadCancelUpsert
  | StoreThreadHeldTerms
  | StoreThreadDenseCosines
  | StoreThreadRead;

/** `error` as it can be posted. */
export function recordError(error: unknown): ErrorRecord {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as NodeJS.ErrnoException).code;
  const status = (error as { status?: unknown }).status;
  return {
    name: error.name,
    message: error.message,
    ...(error.stack === undefined ? {} : { stack: error.stack }),
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof status === 'number' ? { status } : {}),
  };
}

/** An Error again, with the name, message, stack, code and status it had on the store thread. */
export function reviveError(record: ErrorRecord): Error {
  const error: Error & { code?: string; status?: number } = new Error(record.message);
  error.name = record.name;
  if (record.stack !== undefined) error.stack = record.stack;
  if (record.code !== undefined) error.code = record.code;
  if (record.status !== undefined) error.status = record.status;
  return error;
}

/** Log fields as they can be posted: errors (a failed request's `err`) become records, revived on arrival. */
export function recordFields(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [
      key,
      value instanceof Error ? { [ERROR_MARK]: recordError(value) } : value,
    ]),
  );
}

/** The fields recordFields posted, with their errors revived for the logger's error serializer. */
export function reviveFields(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields).map(([key, value]) => {
      const record = (value as { [ERROR_MARK]?: ErrorRecord } | null)?.[ERROR_MARK];
      return [key, record === undefined ? value : reviveError(record)];
    }),
  );
}

const ERROR_MARK = '__storeThreadError';
