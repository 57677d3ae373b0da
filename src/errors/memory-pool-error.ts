/**
 * @module The service's one error model: every failure a user can see has a stable code, an HTTP status,
 * whether retrying can help, and a message that says what to do. Rendered in one place (http/error-handler).
 */

/** Every error code the service can answer with; docs/errors.md lists each one (a test keeps them in sync). */
export const ERROR_CODES = [
  'config_invalid',
  'validation_failed',
  'body_too_large',
  'unsupported_media_type',
  'unknown_bot',
  'not_found',
  'unauthorized',
  'forbidden',
  'account_linked',
  'too_many_attempts',
  'embedding_failed',
  'embedding_rate_limited',
  'embedding_dimension_mismatch',
  'store_unavailable',
  'store_failed',
  'collection_incompatible',
  'collection_missing',
  'recall_timeout',
  'journal_unavailable',
  'ui_not_built',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface MemoryPoolErrorOptions {
  readonly status?: number;
  readonly retryable?: boolean;
  readonly field?: string;
  readonly cause?: unknown;
}

/** Base class: created where the facts are known, so the message can name the field and the fix. */
export class MemoryPoolError extends Error {
  override readonly name: string = 'MemoryPoolError';
  readonly status: number;
  readonly retryable: boolean;
  readonly field: string | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: MemoryPoolErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.status = options.status ?? 500;
    this.retryable = options.retryable ?? false;
    this.field = options.field;
  }
}

/** Bad configuration: names the key and how to fix it. Never retryable. */
export class ConfigError extends MemoryPoolError {
  override readonly name = 'ConfigError';
  constructor(key: string, message: string, cause?: unknown) {
    super('config_invalid', `config ${key}: ${message}`, { status: 500, field: key, cause });
  }
}

/** A request that does not fit the API: 400 naming the field. */
export class ValidationError extends MemoryPoolError {
  override readonly name = 'ValidationError';
  constructor(field: string, message: string, code: ErrorCode = 'validation_failed', status = 400) {
    super(code, message, { status, field });
  }
}

/** A body over `limits.maxBodyBytes`: 413, sent before the rest of the body is read. */
export class BodyTooLargeError extends MemoryPoolError {
  override readonly name = 'BodyTooLargeError';
  constructor(maxBytes: number) {
    super(
      'body_too_large',
      `the request body is larger than ${maxBytes} bytes; send fewer or shorter messages per call`,
      { status: 413, field: '(body)' },
    );
  }
}

/** Something named in a request does not exist (a bot, a point). */
export class NotFoundError extends MemoryPoolError {
  override readonly name = 'NotFoundError';
  constructor(code: 'unknown_bot' | 'not_found', message: string, field?: string) {
    super(code, message, { status: 404, field });
  }
}

/** Missing or wrong credentials (401), or a key whose scope does not allow the call (403). */
export class AuthError extends MemoryPoolError {
  override readonly name = 'AuthError';
  constructor(code: 'unauthorized' | 'forbidden', message: string) {
    super(code, message, { status: code === 'unauthorized' ? 401 : 403 });
  }
}

/** The embedding provider failed; `retryAfterMs` when it said when to come back. */
export class ProviderError extends MemoryPoolError {
  override readonly name = 'ProviderError';
  constructor(
    code: 'embedding_failed' | 'embedding_rate_limited' | 'embedding_dimension_mismatch',
    message: string,
    options: { retryable: boolean; retryAfterMs?: number; cause?: unknown },
  ) {
    super(code, message, { status: 502, retryable: options.retryable, cause: options.cause });
    this.retryAfterMs = options.retryAfterMs;
  }
  readonly retryAfterMs: number | undefined;
}

/** The vector store failed or refused (unreachable, or a collection that does not fit the embedder). */
export class StoreError extends MemoryPoolError {
  override readonly name = 'StoreError';
  constructor(
    code: 'store_unavailable' | 'store_failed' | 'collection_incompatible' | 'collection_missing',
    message: string,
    options: { retryable: boolean; cause?: unknown },
  ) {
    super(code, message, {
      status: code === 'store_unavailable' ? 503 : 502,
      retryable: options.retryable,
      cause: options.cause,
    });
  }
}

/** The service's own journal cannot be written (disk full, read-only, I/O error): 503, retry once fixed. */
export class JournalError extends MemoryPoolError {
  override readonly name = 'JournalError';
  /**
   * For the service log and an admin's /ready only: which server failed and how (a Postgres URL without its
   * password, the driver's words). Every key reads `message`, so it never names the server.
   */
  readonly detail: string | undefined;
  constructor(message: string, cause?: unknown, detail?: string) {
    super('journal_unavailable', message, { status: 503, retryable: true, cause });
    this.detail = detail;
  }
}

/** Type guard for MemoryPoolError. */
export function isMemoryPoolError(value: unknown): value is MemoryPoolError {
  return value instanceof MemoryPoolError;
}
