/** @module The client's errors, split by what the caller should do: fix the request, wait, or check the service is up. */
import type { ErrorCode } from '../errors/memory-pool-error.js';

/** The service answered with an error body; `code` is stable, `field` names the request field at fault. */
export class MemoryPoolApiError extends Error {
  override readonly name = 'MemoryPoolApiError';
  constructor(
    readonly status: number,
    /** One of the service's error codes, or `unexpected_response` when the body was not the error shape. */
    readonly code: ErrorCode | 'unexpected_response',
    message: string,
    readonly field?: string,
    /** How long the service asked the caller to wait (`Retry-After`), when it said. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }

  /** Whether sending the same request again can help (rate limits and server-side failures). */
  get retryable(): boolean {
    return this.status === 429 || this.status >= 500;
  }
}

/** No answer within `timeoutMs`: the service may be overloaded or stuck. */
export class MemoryPoolTimeoutError extends Error {
  override readonly name = 'MemoryPoolTimeoutError';
  constructor(
    readonly url: string,
    readonly timeoutMs: number,
  ) {
    super(
      `memory-pool did not answer ${url} within ${timeoutMs} ms; raise timeoutMs or check the service load`,
    );
  }
}

/** The request never reached the service (refused, reset, DNS): check `baseUrl` and that `memory-pool serve` runs. */
export class MemoryPoolNetworkError extends Error {
  override readonly name = 'MemoryPoolNetworkError';
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(
      `could not reach memory-pool at ${url} (${describeCause(cause)}); is \`memory-pool serve\` running there?`,
      {
        cause,
      },
    );
  }
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  // undici hides the socket error (ECONNREFUSED, ...) one level down.
  const inner = cause.cause instanceof Error ? `: ${cause.cause.message}` : '';
  return `${cause.message}${inner}`;
}
