/**
 * @module One POST to an OpenAI-compatible `/embeddings` endpoint under a timeout: success gives vectors
 * in input order; every failure becomes a ProviderError marked retryable or not. Retrying is the caller's.
 */
import { ProviderError } from '../../errors/memory-pool-error.js';
import { describeHttpFailure, type FailedCallContext } from './describe-http-failure.js';
import { readEmbeddingsResponse } from './read-embeddings-response.js';

/** The slice of `fetch` this module uses, so tests and callers can substitute their own. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/**
 * How vectors travel: `base64` (little-endian float32, what OpenAI's own clients ask for) is a quarter of the
 * JSON and is read ~7x faster than a list of numbers (bench/embedding-decode.bench.ts); `float` is the API's
 * default, which every server speaks.
 */
export type EmbeddingEncoding = 'base64' | 'float';

/**
 * The statuses a server that does not know `encoding_format` answers with (OpenAI-style 400, FastAPI/pydantic
 * 422). Others (a key, a model, a rate limit, an outage) are not about the encoding.
 */
const REFUSED_FIELD_STATUSES = new Set([400, 422]);

/** An answer's vectors, and the encoding the server actually used (one that ignores `base64` sends floats). */
export interface EmbeddingsAnswer {
  readonly vectors: Float32Array[];
  readonly encoding: EmbeddingEncoding;
}

export interface EmbeddingsEndpoint extends FailedCallContext {
  /** Full endpoint URL, `<baseUrl>/embeddings`. */
  readonly url: string;
  readonly dimensions: number | undefined;
  readonly timeoutMs: number;
  readonly fetch: FetchLike;
}

/**
 * Sends `input` in one request, asking for `encoding`; the caller's `signal` aborting rejects with its reason,
 * never a ProviderError. A base64 request refused with 400/422 is sent once more asking for floats: if that
 * succeeds, its answer (encoding `float`) tells the caller to stop asking for base64; if it fails too, base64
 * was not the problem and that request's error is thrown.
 */
export async function postEmbeddings(
  endpoint: EmbeddingsEndpoint,
  input: readonly string[],
  signal: AbortSignal | undefined,
  encoding: EmbeddingEncoding = 'float',
): Promise<EmbeddingsAnswer> {
  const timeout = AbortSignal.timeout(endpoint.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  const body: Record<string, unknown> = { model: endpoint.model, input };
  if (endpoint.dimensions !== undefined) body.dimensions = endpoint.dimensions;
  // Floats are the API's default: sent only when asking for something else, so a strict server never sees it.
  if (encoding === 'base64') body.encoding_format = 'base64';

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

  if (encoding === 'base64' && REFUSED_FIELD_STATUSES.has(status))
    return postEmbeddings(endpoint, input, signal, 'float');
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
  const vectors = readEmbeddingsResponse(parsed, input.length, `embedding provider at ${endpoint.baseUrl}`);
  return { vectors, encoding: answeredInBase64(parsed) ? 'base64' : 'float' };
}

/** Whether the (already validated) answer's vectors came as base64 strings. */
function answeredInBase64(parsed: unknown): boolean {
  const first = (parsed as { data: Array<{ embedding: unknown }> }).data[0];
  return typeof first?.embedding === 'string';
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
