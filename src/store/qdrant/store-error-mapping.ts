/** @module Turns whatever the Qdrant client threw into a StoreError that says what failed and whether a retry can help. */
import { StoreError } from '../../errors/memory-pool-error.js';

interface ClientErrorShape {
  status?: number;
  data?: { status?: { error?: string } };
  message?: string;
  cause?: { code?: string };
}

/** Maps a client failure: network errors, 429 and 5xx are retryable; other 4xx are not. */
export function toStoreError(what: string, url: string, error: unknown): StoreError {
  if (error instanceof StoreError) return error;
  const shape = (error ?? {}) as ClientErrorShape;
  const status = typeof shape.status === 'number' ? shape.status : undefined;
  if (status === undefined) {
    const reason = shape.cause?.code ?? shape.message ?? String(error);
    return new StoreError(
      'store_unavailable',
      `Qdrant at ${url} is unreachable (${reason}) while trying to ${what}. Check that it is running and that QDRANT_URL is right.`,
      { retryable: true, cause: error },
    );
  }
  const detail = shape.data?.status?.error ?? shape.message ?? `HTTP ${status}`;
  if (status === 404) {
    // Only collection routes are called, so a 404 means the collection is gone (deleted by another client).
    return new StoreError('collection_missing', `Qdrant could not ${what}: ${detail}.`, {
      retryable: true,
      cause: error,
    });
  }
  if (status === 401 || status === 403) {
    return new StoreError(
      'store_failed',
      `Qdrant at ${url} refused to ${what} (${status} ${detail}). Set QDRANT_API_KEY (or store.qdrant.apiKey) to a key with write access.`,
      { retryable: false, cause: error },
    );
  }
  const retryable = status === 429 || status >= 500;
  return new StoreError('store_failed', `Qdrant could not ${what}: ${detail} (HTTP ${status}).`, {
    retryable,
    cause: error,
  });
}
