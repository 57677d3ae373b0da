/**
 * @module Turning a provider's non-2xx answer into a ProviderError that says whether retrying helps and what
 * the user should change (key, model name, base URL), quoting the provider's own message.
 */
import { ProviderError } from '../../errors/memory-pool-error.js';
import { parseRetryAfterMs } from '../../runtime/retry.js';

/** What the message needs to know about the call that failed. */
export interface FailedCallContext {
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey: string | undefined;
  /** Where the user sets the key, e.g. "embedding.apiKey"; named in 401/403 messages. */
  readonly apiKeyHint: string;
}

const MAX_QUOTED_CHARS = 300;

/** Builds the error for HTTP `status` with response text `bodyText`. */
export function describeHttpFailure(
  status: number,
  bodyText: string,
  headers: Headers,
  context: FailedCallContext,
): ProviderError {
  const detail = readProviderMessage(bodyText, context.apiKey);
  const quoted = detail.message ? `: ${detail.message}` : '';
  const at = `embedding provider at ${context.baseUrl}`;
  const retryAfterMs = parseRetryAfterMs(headers.get('retry-after'));

  if (status === 401 || status === 403) {
    const fix = context.apiKey
      ? `check the key set in ${context.apiKeyHint}`
      : `no API key is configured: set ${context.apiKeyHint}`;
    return new ProviderError(
      'embedding_failed',
      `${at} rejected the API key (HTTP ${status}); ${fix}${quoted}`,
      {
        retryable: false,
      },
    );
  }
  if (status === 404 || isModelNotFound(status, detail)) {
    return new ProviderError(
      'embedding_failed',
      `${at} has no model "${context.model}" or no /embeddings endpoint (HTTP ${status}); check ` +
        `embedding.model, and that embedding.baseUrl is the API root (usually ending in /v1)${quoted}`,
      { retryable: false },
    );
  }
  if (status === 429 && detail.code === 'insufficient_quota') {
    // OpenAI answers 429 for an exhausted quota too, but waiting will not fix that one.
    return new ProviderError('embedding_failed', `${at} says the account's quota is used up${quoted}`, {
      retryable: false,
    });
  }
  if (status === 429) {
    return new ProviderError(
      'embedding_rate_limited',
      `${at} is rate limiting requests (HTTP 429)${quoted}`,
      {
        retryable: true,
        retryAfterMs,
      },
    );
  }
  if (status >= 500 || status === 408) {
    return new ProviderError('embedding_failed', `${at} failed (HTTP ${status})${quoted}`, {
      retryable: true,
      retryAfterMs,
    });
  }
  return new ProviderError('embedding_failed', `${at} rejected the request (HTTP ${status})${quoted}`, {
    retryable: false,
  });
}

interface ProviderMessage {
  readonly message: string;
  readonly code: string | undefined;
}

/** Pulls the message out of the shapes servers use: OpenAI `{error:{message,code}}`, `{error:"..."}`, `{detail}`. */
function readProviderMessage(bodyText: string, apiKey: string | undefined): ProviderMessage {
  let message = bodyText.trim();
  let code: string | undefined;
  try {
    const body: unknown = JSON.parse(bodyText);
    if (typeof body === 'object' && body !== null) {
      const { error, message: topMessage, detail } = body as Record<string, unknown>;
      if (typeof error === 'object' && error !== null) {
        const inner = error as Record<string, unknown>;
        if (typeof inner.message === 'string') message = inner.message;
        if (typeof inner.code === 'string') code = inner.code;
      } else if (typeof error === 'string') message = error;
      else if (typeof topMessage === 'string') message = topMessage;
      else if (typeof detail === 'string') message = detail;
    }
  } catch {
    // Not JSON (an HTML error page from a proxy, say): quote the text as it is.
  }
  // Providers sometimes echo the key they were given; it must not reach logs or HTTP answers.
  if (apiKey) message = message.split(apiKey).join('[redacted]');
  if (message.length > MAX_QUOTED_CHARS) message = `${message.slice(0, MAX_QUOTED_CHARS)}…`;
  return { message, code };
}

function isModelNotFound(status: number, detail: ProviderMessage): boolean {
  if (detail.code === 'model_not_found') return true;
  return (
    status === 400 &&
    /model/i.test(detail.message) &&
    /not (be )?found|does not exist|unknown/i.test(detail.message)
  );
}
