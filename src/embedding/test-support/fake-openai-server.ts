/**
 * @module A local stand-in for an OpenAI-compatible embeddings server, for tests anywhere in the project.
 *
 * ```ts
 * const server = await startFakeOpenAiServer({ dimensions: 32, apiKey: 'sk-test' });
 * const config = { provider: 'openai-compatible', baseUrl: server.baseUrl, model: server.models[0]!, ... };
 * server.failNext({ kind: 'status', status: 429, retryAfter: '0' });   // next request is rate limited
 * ...
 * assert.equal(server.requests.length, 2);
 * await server.close();
 * ```
 *
 * It listens on 127.0.0.1 on a free port and answers `POST /v1/embeddings` with the vectors
 * HashingEmbedder gives for each input (so tests can predict them), at the request's `dimensions` when
 * sent, as numbers or, when asked with `encoding_format: "base64"`, as base64 float32 (see `base64`). Every request is recorded. Faults are queued with `failNext` and each consumes one request.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HashingEmbedder } from '../hashing/hashing-embedder.js';

/** One misbehavior, applied to one request. */
export type FakeFault =
  /** Answer with this status and an OpenAI-style error body; `retryAfter` sets the Retry-After header. */
  | {
      readonly kind: 'status';
      readonly status: number;
      readonly retryAfter?: string;
      readonly message?: string;
      readonly code?: string;
    }
  /** Wait this long before answering normally (for timeouts). */
  | { readonly kind: 'slow'; readonly delayMs: number }
  /** Answer with vectors of this length whatever was asked. */
  | { readonly kind: 'wrong-dimensions'; readonly dimensions: number }
  /** Answer 200 with this JSON body (for malformed-response tests). */
  | { readonly kind: 'body'; readonly body: unknown }
  /** Close the socket without answering (a network error to the client). */
  | { readonly kind: 'drop-connection' };

export interface FakeOpenAiServerOptions {
  /** Default vector length when the request sends no `dimensions` (default 16). */
  readonly dimensions?: number;
  /** Models served; any other gets OpenAI's 404 `model_not_found` (default ['fake-embedding-model']). */
  readonly models?: readonly string[];
  /** When set, requests without `Authorization: Bearer <apiKey>` get 401. */
  readonly apiKey?: string;
  /** Return `data` in reverse order (with correct `index`es), as servers may do. */
  readonly shuffleOrder?: boolean;
  /**
   * What it does with `encoding_format: "base64"`: `answer` sends base64 float32 (OpenAI; the default),
   * `ignore` sends floats anyway (servers that do not know the field), `refuse` answers 400 naming it.
   */
  readonly base64?: 'answer' | 'ignore' | 'refuse';
}

/** What one request carried. `body` is the parsed JSON (or the raw text if it was not JSON). */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: unknown;
  /** `body.input` when it was a list of strings, for quick batch assertions. */
  readonly input: readonly string[];
}

export interface FakeOpenAiServer {
  /** API root to put in config, e.g. "http://127.0.0.1:43121/v1". */
  readonly baseUrl: string;
  readonly models: readonly string[];
  /** Every request received, oldest first. */
  readonly requests: RecordedRequest[];
  /** Queue `fault` for the next `times` requests (after any already queued). */
  failNext(fault: FakeFault, times?: number): void;
  /** The vector the server returns for `text` at `dimensions` (default the server's). */
  vectorFor(text: string, dimensions?: number): Float32Array;
  /** Forget recorded requests and queued faults. */
  reset(): void;
  close(): Promise<void>;
}

/** Starts the server; always `close()` it (e.g. in `after`). */
export async function startFakeOpenAiServer(
  options: FakeOpenAiServerOptions = {},
): Promise<FakeOpenAiServer> {
  const defaultDimensions = options.dimensions ?? 16;
  const models = options.models ?? ['fake-embedding-model'];
  const requests: RecordedRequest[] = [];
  const faults: FakeFault[] = [];
  const embedders = new Map<number, HashingEmbedder>();
  const vectorFor = (text: string, dimensions = defaultDimensions) => {
    let embedder = embedders.get(dimensions);
    if (!embedder) {
      embedder = new HashingEmbedder({ dimensions });
      embedders.set(dimensions, embedder);
    }
    return embedder.embedOne(text);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const text = await readBody(req);
    const body = parseJson(text);
    const input = readInput(body);
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, input });
    const fault = faults.shift();

    if (req.method !== 'POST' || req.url !== '/v1/embeddings')
      return sendError(res, 404, 'Not found', 'not_found');
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return sendError(res, 401, 'Incorrect API key provided.', 'invalid_api_key');
    }
    if (fault?.kind === 'drop-connection') return void req.socket.destroy();
    if (fault?.kind === 'status') {
      const headers: Record<string, string> =
        fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter };
      return sendError(
        res,
        fault.status,
        fault.message ?? `fake failure ${fault.status}`,
        fault.code,
        headers,
      );
    }
    if (fault?.kind === 'body') return sendJson(res, 200, fault.body);
    if (fault?.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, fault.delayMs));

    const model = isRecord(body) ? body.model : undefined;
    if (typeof model !== 'string' || !models.includes(model)) {
      return sendError(res, 404, `The model \`${String(model)}\` does not exist`, 'model_not_found');
    }
    if (input.length === 0)
      return sendError(res, 400, "'input' must be a non-empty list of strings", undefined);
    const asked = isRecord(body) && typeof body.dimensions === 'number' ? body.dimensions : defaultDimensions;
    const dimensions = fault?.kind === 'wrong-dimensions' ? fault.dimensions : asked;
    const format = isRecord(body) ? body.encoding_format : undefined;
    const base64 = options.base64 ?? 'answer';
    if (format !== undefined && format !== 'float' && base64 === 'refuse') {
      return sendError(res, 400, `Unrecognized request argument supplied: encoding_format`, undefined);
    }
    const encode = (vector: Float32Array) =>
      format === 'base64' && base64 === 'answer'
        ? Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64')
        : [...vector];
    const data = input.map((item, index) => ({
      object: 'embedding',
      index,
      embedding: encode(vectorFor(item, dimensions)),
    }));
    if (options.shuffleOrder) data.reverse();
    sendJson(res, 200, { object: 'list', data, model, usage: { prompt_tokens: 0, total_tokens: 0 } });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, `fake server bug: ${String(error)}`, undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    models,
    requests,
    failNext(fault, times = 1) {
      for (let i = 0; i < times; i++) faults.push(fault);
    },
    vectorFor,
    reset() {
      requests.length = 0;
      faults.length = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function readInput(body: unknown): string[] {
  if (!isRecord(body)) return [];
  const { input } = body;
  if (typeof input === 'string') return [input];
  return Array.isArray(input) && input.every((item) => typeof item === 'string') ? input : [];
}

function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  code: string | undefined,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { error: { message, type: 'invalid_request_error', code: code ?? null } }, headers);
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
