/** @module Tests for the OpenAI-compatible embedder against the fake server: batching, order, retries, errors. */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, afterEach, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { ConfigError, ProviderError } from '../../errors/memory-pool-error.js';
import { type FakeOpenAiServer, startFakeOpenAiServer } from '../test-support/fake-openai-server.js';
import { type OpenAiCompatibleConfig, OpenAiCompatibleEmbedder } from './openai-compatible-embedder.js';

const API_KEY = 'sk-test-secret-123';
let server: FakeOpenAiServer;

before(async () => {
  server = await startFakeOpenAiServer({ dimensions: 16, apiKey: API_KEY });
});
afterEach(() => server.reset());
after(() => server.close());

function createEmbedder(overrides: Partial<OpenAiCompatibleConfig> = {}, logger?: pino.Logger) {
  const config: OpenAiCompatibleConfig = {
    provider: 'openai-compatible',
    baseUrl: server.baseUrl,
    model: 'fake-embedding-model',
    apiKey: API_KEY,
    batchSize: 64,
    // One at a time unless a test says otherwise, so the order requests arrive in is the order they were cut.
    concurrency: 1,
    timeoutMs: 5_000,
    maxRetries: 3,
    maxInputTokens: 8191,
    ...overrides,
  };
  // Backoff of a few ms keeps retry tests fast; Retry-After values come from the fake server.
  return new OpenAiCompatibleEmbedder(config, { logger, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
}

/** A real pino logger whose lines the test can read. */
function createRecordingLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ProviderError, `expected ProviderError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

describe('OpenAiCompatibleEmbedder', () => {
  test('sends batches of batchSize with the model, key and no dimensions unless configured', async () => {
    const texts = ['one', 'two', 'three', 'four', 'five'];
    const vectors = await createEmbedder({ batchSize: 2 }).embed(texts);
    assert.deepEqual(
      server.requests.map((request) => request.input),
      [['one', 'two'], ['three', 'four'], ['five']],
    );
    assert.deepEqual(
      vectors,
      texts.map((text) => server.vectorFor(text)),
    );
    const [first] = server.requests;
    assert.equal(first!.path, '/v1/embeddings');
    assert.equal(first!.headers.authorization, `Bearer ${API_KEY}`);
    assert.deepEqual(first!.body, {
      model: 'fake-embedding-model',
      input: ['one', 'two'],
      encoding_format: 'base64',
    });
  });

  test('sends configured dimensions and reports them as known up front', async () => {
    const embedder = createEmbedder({ dimensions: 8 });
    assert.equal(embedder.dimensions, 8);
    const [vector] = await embedder.embed(['hello']);
    assert.equal((server.requests[0]!.body as { dimensions: number }).dimensions, 8);
    assert.deepEqual(vector, server.vectorFor('hello', 8));
  });

  test('learns dimensions from the first response and records the model identity', async () => {
    const embedder = createEmbedder();
    assert.equal(embedder.dimensions, undefined);
    await embedder.embed(['x']);
    assert.equal(embedder.dimensions, 16);
    assert.equal(embedder.model, 'openai-compatible:fake-embedding-model');
  });

  test('puts vectors back in input order when the server answers out of order', async () => {
    const shuffled = await startFakeOpenAiServer({ shuffleOrder: true });
    try {
      const texts = ['alpha', 'beta', 'gamma'];
      const embedder = createEmbedder({ baseUrl: `${shuffled.baseUrl}/`, apiKey: undefined });
      assert.deepEqual(
        await embedder.embed(texts),
        texts.map((text) => shuffled.vectorFor(text)),
      );
    } finally {
      await shuffled.close();
    }
  });

  test('makes no request for no texts', async () => {
    assert.deepEqual(await createEmbedder().embed([]), []);
    assert.equal(server.requests.length, 0);
  });

  test('waits out a 429 for the Retry-After the server sent, then succeeds, never logging the key', async () => {
    const { logger, lines } = createRecordingLogger();
    server.failNext({ kind: 'status', status: 429, retryAfter: '0.02' });
    const [vector] = await createEmbedder({}, logger).embed(['hi']);
    assert.deepEqual(vector, server.vectorFor('hi'));
    assert.equal(server.requests.length, 2);
    const retries = lines.map((line) => JSON.parse(line) as { delayMs?: number; code?: string });
    assert.deepEqual(
      retries.map(({ delayMs, code }) => ({ delayMs, code })),
      [{ delayMs: 20, code: 'embedding_rate_limited' }],
    );
    assert.ok(!lines.join('').includes(API_KEY));
  });

  test('gives up at once with retryAfterMs when Retry-After is longer than it will wait', async () => {
    server.failNext({ kind: 'status', status: 429, retryAfter: '120' });
    const error = await rejection(createEmbedder().embed(['hi']));
    assert.equal(error.code, 'embedding_rate_limited');
    assert.equal(error.retryable, true);
    assert.equal(error.retryAfterMs, 120_000);
    assert.equal(server.requests.length, 1);
  });

  test('retries 500s and dropped connections, then succeeds', async () => {
    server.failNext({ kind: 'status', status: 500 }, 2);
    server.failNext({ kind: 'drop-connection' });
    const [vector] = await createEmbedder().embed(['again']);
    assert.deepEqual(vector, server.vectorFor('again'));
    assert.equal(server.requests.length, 4);
  });

  test('after maxRetries, fails with a retryable error quoting the last status', async () => {
    server.failNext({ kind: 'status', status: 503, message: 'overloaded' }, 5);
    const error = await rejection(createEmbedder({ maxRetries: 2 }).embed(['x']));
    assert.equal(server.requests.length, 3);
    assert.equal(error.code, 'embedding_failed');
    assert.equal(error.retryable, true);
    assert.match(error.message, /HTTP 503.*overloaded/);
  });

  test('does not retry a rejected key and says where to set it, without echoing the key', async () => {
    const wrongKey = 'sk-wrong-key-456';
    const error = await rejection(createEmbedder({ apiKey: wrongKey }).embed(['x']));
    assert.equal(server.requests.length, 1);
    assert.equal(error.retryable, false);
    assert.match(error.message, /HTTP 401.*embedding\.apiKey/);
    assert.ok(!error.message.includes(wrongKey));

    const missing = await rejection(createEmbedder({ apiKey: undefined }).embed(['x']));
    assert.match(missing.message, /no API key is configured: set embedding\.apiKey/);
  });

  test('names the model and base URL when the model does not exist', async () => {
    const error = await rejection(createEmbedder({ model: 'text-embedding-nope' }).embed(['x']));
    assert.equal(error.retryable, false);
    assert.equal(server.requests.length, 1);
    assert.ok(error.message.includes('"text-embedding-nope"'));
    assert.ok(error.message.includes(server.baseUrl));
  });

  test('does not retry a 400 and quotes the provider message', async () => {
    // The first 400 answers a base64 request, which is sent once more asking for floats (see the encoding tests).
    server.failNext({ kind: 'status', status: 400, message: 'input too long for context' }, 2);
    const error = await rejection(createEmbedder().embed(['x']));
    assert.equal(server.requests.length, 2);
    assert.equal(error.retryable, false);
    assert.match(error.message, /HTTP 400.*input too long/);
  });

  test('turns a slow answer into a retryable timeout error naming embedding.timeoutMs', async () => {
    server.failNext({ kind: 'slow', delayMs: 300 });
    const error = await rejection(createEmbedder({ timeoutMs: 30, maxRetries: 0 }).embed(['x']));
    assert.equal(error.retryable, true);
    assert.match(error.message, /within 30 ms \(embedding\.timeoutMs\)/);
    // On a loaded machine the abandoned request can reach the server after the timeout; let it take its
    // fault now, or it would take the next test's.
    for (let waited = 0; server.requests.length === 0 && waited < 2_000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });

  test('rejects vectors whose length differs from embedding.dimensions, without retrying', async () => {
    server.failNext({ kind: 'wrong-dimensions', dimensions: 12 });
    const error = await rejection(createEmbedder({ dimensions: 16 }).embed(['x']));
    assert.equal(error.code, 'embedding_dimension_mismatch');
    assert.equal(error.retryable, false);
    assert.equal(server.requests.length, 1);
    assert.match(error.message, /returned 12-d vectors but embedding\.dimensions is 16/);
  });

  test('rejects a later response whose length differs from earlier ones', async () => {
    const embedder = createEmbedder();
    await embedder.embed(['x']);
    server.failNext({ kind: 'wrong-dimensions', dimensions: 12 });
    const error = await rejection(embedder.embed(['y']));
    assert.equal(error.code, 'embedding_dimension_mismatch');
  });

  test('rejects vectors of different lengths in one response', async () => {
    server.failNext({
      kind: 'body',
      body: {
        data: [
          { index: 0, embedding: [1, 0] },
          { index: 1, embedding: [1] },
        ],
      },
    });
    const error = await rejection(createEmbedder().embed(['a', 'b']));
    assert.equal(error.code, 'embedding_dimension_mismatch');
  });

  test('names what is missing from a malformed response', async () => {
    server.failNext({ kind: 'body', body: { result: [] } });
    assert.match(
      (await rejection(createEmbedder().embed(['a']))).message,
      /no "data" array \(top-level keys: result\)/,
    );
    server.failNext({ kind: 'body', body: { data: [{ index: 0 }] } });
    assert.match((await rejection(createEmbedder().embed(['a']))).message, /data\[0\]\.embedding is missing/);
    server.failNext({ kind: 'body', body: { data: [{ index: 0, embedding: [0.1] }] } });
    assert.match((await rejection(createEmbedder().embed(['a', 'b']))).message, /1 embeddings for 2 inputs/);
  });

  test('reports an unreachable server as retryable, naming the address', async () => {
    const closed = await startFakeOpenAiServer();
    await closed.close();
    const error = await rejection(createEmbedder({ baseUrl: closed.baseUrl, maxRetries: 0 }).embed(['x']));
    assert.equal(error.retryable, true);
    assert.match(error.message, /could not reach .*127\.0\.0\.1.*ECONNREFUSED/);
  });

  test("stops with the caller's abort reason when the signal aborts", async () => {
    server.failNext({ kind: 'slow', delayMs: 300 });
    const controller = new AbortController();
    const pending = createEmbedder().embed(['x'], { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('client went away')), 10);
    await assert.rejects(pending, /client went away/);
  });

  test('probe makes one attempt: passes when reachable, fails fast on a 500', async () => {
    const embedder = createEmbedder();
    await embedder.probe();
    assert.equal(embedder.dimensions, 16);
    server.failNext({ kind: 'status', status: 500 }, 3);
    // Counted from here: under load a late request of an earlier test can still arrive before this point.
    const before = server.requests.filter((r) => JSON.stringify(r).includes('ping')).length;
    await rejection(embedder.probe());
    assert.equal(server.requests.filter((r) => JSON.stringify(r).includes('ping')).length - before, 1);
  });

  test('rejects a base URL that is not http(s) with a ConfigError naming the key', () => {
    assert.throws(() => createEmbedder({ baseUrl: 'localhost:11434' }), ConfigError);
    assert.throws(() => createEmbedder({ baseUrl: 'not a url' }), /embedding\.baseUrl/);
    assert.throws(() => createEmbedder({ batchSize: 0 }), /embedding\.batchSize/);
  });
});
