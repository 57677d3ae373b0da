/** @module MemoryPoolClient: the typed TypeScript client for the memory service's HTTP API. */
import type {
  ForgetLogQuery,
  ForgetLogResponse,
  ForgetRequest,
  ForgetResponse,
} from '../wire/forget-request.js';
import type {
  LinkCodeRequest,
  LinkCodeResponse,
  LinkCodeStatusRequest,
  LinkCodeStatusResponse,
  RedeemLinkCodeRequest,
  WirePerson,
} from '../wire/people.js';
import type { RetrieveRequest, RetrieveResponse } from '../wire/retrieve-request.js';
import type { SaveRequest, SaveResponse } from '../wire/save-request.js';
import type { HealthResponse, ReadyResponse } from '../wire/service-status.js';
import type { BotStatsResponse } from '../wire/stats-response.js';

export type { HealthResponse, ReadyResponse };

import { type FetchLike, sendRequest, type TransportSettings } from './send-request.js';

export interface MemoryPoolClientOptions {
  /** Where `memory-pool serve` listens, e.g. `http://127.0.0.1:3102`. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <key>`; needed when the service has API keys configured. */
  readonly apiKey?: string;
  /** Per-attempt time limit in ms. Default 3000: a chat bot should answer without memories rather than hang. */
  readonly timeoutMs?: number;
  /** Extra attempts for idempotent calls after a network error, 429 or 5xx. Default 2. */
  readonly retries?: number;
  /** First backoff delay in ms, doubled each retry (with jitter) unless the service sent `Retry-After`. Default 200. */
  readonly retryDelayMs?: number;
  /** The fetch to use. Default: the global fetch. */
  readonly fetch?: FetchLike;
}

export type { ForgetLogQuery, ForgetLogResponse };

/** Per call: `signal` cancels the request, and any wait before a retry, at once. */
export interface CallOptions {
  readonly signal?: AbortSignal;
}

// Looked up per call, so a fetch patched after construction (tests, instrumentation) is used.
const callGlobalFetch: FetchLike = (url, init) => fetch(url, init);

/** Calls one memory-pool service; safe to share across requests. */
export class MemoryPoolClient {
  readonly #settings: TransportSettings;

  constructor(options: MemoryPoolClientOptions) {
    const baseUrl = URL.canParse(options.baseUrl) ? new URL(options.baseUrl) : undefined;
    // `localhost:3102` parses as a URL with the scheme `localhost:`, so the scheme is checked too.
    if (baseUrl === undefined || (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:')) {
      throw new TypeError(
        `MemoryPoolClient: baseUrl "${options.baseUrl}" is not an http(s) URL; pass e.g. http://127.0.0.1:3102`,
      );
    }
    const check = (name: string, value: number | undefined, min: number) => {
      if (value !== undefined && !(Number.isFinite(value) && value >= min)) {
        throw new TypeError(`MemoryPoolClient: ${name} must be a number >= ${min}, got ${value}`);
      }
    };
    check('timeoutMs', options.timeoutMs, 1);
    check('retries', options.retries, 0);
    check('retryDelayMs', options.retryDelayMs, 0);
    this.#settings = Object.freeze({
      baseUrl: baseUrl.href.replace(/\/+$/, ''),
      headers: Object.freeze({
        accept: 'application/json',
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      }),
      timeoutMs: options.timeoutMs ?? 3000,
      retries: options.retries ?? 2,
      retryDelayMs: options.retryDelayMs ?? 200,
      fetch: options.fetch ?? callGlobalFetch,
    });
  }

  /** Saves a window of recent messages. Idempotent per message id, so re-sending a window is safe and retried. */
  save(request: SaveRequest, options: CallOptions = {}): Promise<SaveResponse> {
    return sendRequest(this.#settings, {
      method: 'POST',
      path: '/save',
      body: request,
      idempotent: true,
      signal: options.signal,
    });
  }

  /** Recalls the stored chunks nearest to `query_text`, with the ready-to-inject `formatted` block. */
  retrieve(request: RetrieveRequest, options: CallOptions = {}): Promise<RetrieveResponse> {
    return sendRequest(this.#settings, {
      method: 'POST',
      path: '/retrieve',
      body: request,
      idempotent: true,
      signal: options.signal,
    });
  }

  /**
   * Forgets messages by id, or everything one selector matches (needs the key's `forget` scope). Not retried:
   * a 503 means the forget is recorded and finishing in the background, and a retry would only answer zeros.
   */
  forget(request: ForgetRequest, options: CallOptions = {}): Promise<ForgetResponse> {
    return sendRequest(this.#settings, {
      method: 'POST',
      path: '/forget',
      body: request,
      idempotent: false,
      signal: options.signal,
    });
  }

  /** The audit log of forgets (needs the key's `admin` scope). */
  forgetLog(query: ForgetLogQuery = {}, options: CallOptions = {}): Promise<ForgetLogResponse> {
    const params = new URLSearchParams();
    if (query.bot !== undefined) params.set('bot', query.bot);
    if (query.limit !== undefined) params.set('limit', String(query.limit));
    const search = params.size === 0 ? '' : `?${params}`;
    return sendRequest(this.#settings, {
      method: 'GET',
      path: `/admin/forget-log${search}`,
      idempotent: true,
      signal: options.signal,
    });
  }

  /** What one bot's memory holds: points (SillyTavern's apart), journaled messages by source, the queue. */
  stats(bot: string, options: CallOptions = {}): Promise<BotStatsResponse> {
    return sendRequest(this.#settings, {
      method: 'GET',
      path: `/bots/${encodeURIComponent(bot)}/stats`,
      idempotent: true,
      signal: options.signal,
    });
  }

  /** A one-use code (10 minutes) for `account`, to say on another interface; the key vouches for the account. */
  createLinkCode(
    bot: string,
    request: LinkCodeRequest,
    options: CallOptions = {},
  ): Promise<LinkCodeResponse> {
    return sendRequest(this.#settings, {
      method: 'POST',
      path: `/bots/${encodeURIComponent(bot)}/link-codes`,
      body: request,
      idempotent: false,
      signal: options.signal,
    });
  }

  /** Links `account` with the account that asked for `code`; not retried: a code links once. */
  redeemLinkCode(
    bot: string,
    request: RedeemLinkCodeRequest,
    options: CallOptions = {},
  ): Promise<WirePerson> {
    return sendRequest(this.#settings, {
      method: 'POST',
      path: `/bots/${encodeURIComponent(bot)}/link-codes/redeem`,
      body: request,
      idempotent: false,
      signal: options.signal,
    });
  }

  /** What became of a code, asked by the account that asked for it: `waiting`, `redeemed` (into whom), `expired`. */
  linkCodeStatus(
    bot: string,
    request: LinkCodeStatusRequest,
    options: CallOptions = {},
  ): Promise<LinkCodeStatusResponse> {
    return sendRequest(this.#settings, {
      method: 'POST',
      path: `/bots/${encodeURIComponent(bot)}/link-codes/status`,
      body: request,
      idempotent: true,
      signal: options.signal,
    });
  }

  health(options: CallOptions = {}): Promise<HealthResponse> {
    return sendRequest(this.#settings, {
      method: 'GET',
      path: '/health',
      idempotent: true,
      signal: options.signal,
    });
  }

  /** Resolves with `ready: false` (not an error) when a dependency is down; not retried, since that is the answer. */
  ready(options: CallOptions = {}): Promise<ReadyResponse> {
    return sendRequest(this.#settings, {
      method: 'GET',
      path: '/ready',
      idempotent: false,
      acceptStatuses: [503],
      signal: options.signal,
    });
  }
}
