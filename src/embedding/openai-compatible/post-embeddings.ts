/**
 * @module One POST to an OpenAI-compatible `/embeddings` endpoint under a timeout: success gives vectors
 * in input order; every failure becomes a ProviderError marked retryable or not. Retrying is the caller's.
 */
import { ProviderError } from '../../errors/memory-pool-error.js';
import { describeHttpFailure, type FailedCallContext } from './describe-http-failure.js';
import { readEmbeddingsResponse } from './read-embeddings-response.js';

/** The slice of `fetch` this module uses, so tests and callers can substitute their own. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface EmbeddingsEndpoint extends FailedCallContext {
  /** Full endpoint URL, `<baseUrl>/embeddings`. */
  readonly url: string;
  readonly dimensions: number | undefined;
  readonly timeoutMs: number;
  readonly fetch: FetchLike;
}

/** Sends `input` in one request; the caller's `signal` aborting rejects with its reason, never a ProviderError. */
export async function postEmbeddings(
  endpoint: EmbeddingsEndpoint,
  input: readonly string[],
  signal: AbortSignal | undefined,
): Promise<Float32Array[]> {
  const timeout = AbortSignal.timeout(endpoint.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  const body: Record<string, unknown> = { model: endpoint.model, input };
  if (endpoint.dimensions !== undefined) body.dimensions = endpoint.dimensions;

  let status: number;
  let responseHeaders: Headers;
  let text: string;
  try {
    const response = await endpoint.fetch(endpoint.url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: combined,
    });
    status = response.status;
    responseHeaders = response.headers;
    // The body is read under the same timeout: a server can stall after sending headers.
    text = await response.text();
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (timeout.aborted) {
      throw new ProviderError(
        'embedding_failed',
        `embedding provider at ${endpoint.baseUrl} did not answer within ${endpoint.timeoutMs} ms (embedding.timeoutMs)`,
        { retryable: true, cause: error },
      );
    }
    throw new ProviderError(
      'embedding_failed',
      `could not reach the embedding provider at ${endpoint.baseUrl}: ${describeNetworkError(error)}`,
      { retryable: true, cause: error },
    );
  }

  if (status < 200 || status >= 300) throw describeHttpFailure(status, text, responseHeaders, endpoint);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ProviderError(
      'embedding_failed',
      `embedding provider at ${endpoint.baseUrl} answered HTTP ${status} with a body that is not JSON ` +
        `(starts ${JSON.stringify(text.slice(0, 80))}); is embedding.baseUrl the API root?`,
      { retryable: false, cause: error },
    );
  }
  return readEmbeddingsResponse(parsed, input.length, `embedding provider at ${endpoint.baseUrl}`);
}

/** Node's fetch hides the useful part (ECONNREFUSED, ENOTFOUND) in `cause`. */
function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code;
    return code ? `${code} (${cause.message})` : cause.message;
  }
  return error.message;
}
