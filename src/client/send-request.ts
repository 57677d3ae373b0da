/** @module One HTTP call to the service: a timeout per attempt, retries with backoff, and typed errors. */
import { parseRetryAfterMs, runWithRetries } from '../runtime/retry.js';
import {
  MemoryPoolApiError,
  MemoryPoolNetworkError,
  MemoryPoolTimeoutError,
} from './memory-pool-client-errors.js';

/** The subset of `fetch` the client uses, so tests and in-process callers (e.g. Hono's `app.request`) can stand in. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface TransportSettings {
  readonly baseUrl: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retryDelayMs: number;
  readonly fetch: FetchLike;
}

export interface RequestSpec {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: unknown;
  /** Only idempotent calls may be sent twice. */
  readonly idempotent: boolean;
  /** Statuses that are answers rather than errors (GET /ready answers 503 with its checks). */
  readonly acceptStatuses?: readonly number[];
  /** The caller's own cancellation: ends the request and any wait between attempts at once. */
  readonly signal?: AbortSignal | undefined;
}

/** Longest wait a `Retry-After` header may impose, so a misbehaving proxy cannot park a bot for minutes. */
const MAX_RETRY_AFTER_MS = 5_000;

/** Sends the request and returns the parsed JSON body; throws MemoryPool*Error. */
export async function sendRequest<T>(settings: TransportSettings, spec: RequestSpec): Promise<T> {
  const url = `${settings.baseUrl}${spec.path}`;
  return runWithRetries(() => sendOnce<T>(settings, spec, url), {
    maxRetries: spec.idempotent ? settings.retries : 0,
    baseMs: settings.retryDelayMs,
    maxMs: Number.POSITIVE_INFINITY,
    // A longer Retry-After is waited for 5 s and tried again: a bot would rather retry soon than give up.
    maxRetryAfterMs: MAX_RETRY_AFTER_MS,
    clampRetryAfter: true,
    // Timeouts are not retried: the caller's time budget is already spent.
    classify: (error) => ({
      retry:
        error instanceof MemoryPoolNetworkError || (error instanceof MemoryPoolApiError && error.retryable),
      retryAfterMs: error instanceof MemoryPoolApiError ? error.retryAfterMs : undefined,
    }),
    signal: spec.signal,
  });
}

async function sendOnce<T>(settings: TransportSettings, spec: RequestSpec, url: string): Promise<T> {
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const signal = spec.signal === undefined ? timeout : AbortSignal.any([timeout, spec.signal]);
  let response: Response;
  let text: string;
  try {
    response = await settings.fetch(url, {
      method: spec.method,
      headers:
        spec.body === undefined
          ? settings.headers
          : { ...settings.headers, 'content-type': 'application/json' },
      ...(spec.body === undefined ? {} : { body: JSON.stringify(spec.body) }),
      signal,
    });
    text = await response.text();
  } catch (error) {
    if (spec.signal?.aborted) throw spec.signal.reason;
    if (timeout.aborted) throw new MemoryPoolTimeoutError(url, settings.timeoutMs);
    throw new MemoryPoolNetworkError(url, error);
  }
  const json = parseJson(text);
  if (response.ok || spec.acceptStatuses?.includes(response.status)) {
    if (json === undefined) {
      throw new MemoryPoolApiError(
        response.status,
        'unexpected_response',
        `${url} answered without a JSON body`,
      );
    }
    return json as T;
  }
  throw toApiError(response, json, url);
}

function toApiError(response: Response, json: unknown, url: string): MemoryPoolApiError {
  const body = (json as { error?: { code?: unknown; message?: unknown; field?: unknown } } | undefined)
    ?.error;
  const retryAfterMs = parseRetryAfterMs(response.headers.get('retry-after'));
  if (typeof body?.code === 'string' && typeof body.message === 'string') {
    const field = typeof body.field === 'string' ? body.field : undefined;
    return new MemoryPoolApiError(
      response.status,
      body.code as MemoryPoolApiError['code'],
      body.message,
      field,
      retryAfterMs,
    );
  }
  const message = `${url} answered HTTP ${response.status} without an error body`;
  return new MemoryPoolApiError(response.status, 'unexpected_response', message, undefined, retryAfterMs);
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
