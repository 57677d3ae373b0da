/**
 * @module Tests for the OpenAI-compatible embedder's concurrent requests (`embedding.concurrency`): the bound
 * holds, a failed request is retried alone, vectors come back in input order, a request failing for good stops
 * the rest.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProviderError } from '../../errors/memory-pool-error.js';
import { type FakeOpenAiServer, startFakeOpenAiServer } from '../test-support/fake-openai-server.js';
import { OpenAiCompatibleEmbedder } from './openai-compatible-embedder.js';
import type { FetchLike } from './post-embeddings.js';

let server: FakeOpenAiServer;
before(async () => {
  // Answers out of order within each request too: the order kept is the client's work.
  server = await startFakeOpenAiServer({ dimensions: 16, shuffleOrder: true });
});
afterEach(() => server.reset());
after(() => server.close());

/** Real fetch to the fake server, counting the requests open at once; `hold` delays a request's answer. */
function createCountingFetch(hold: (input: readonly string[]) => number) {
  const counts = { open: 0, most: 0 };
  const countingFetch: FetchLike = async (url, init) => {
    counts.open += 1;
    counts.most = Math.max(counts.most, counts.open);
    try {
      const response = await fetch(url, init);
      const { input } = JSON.parse(String(init.body)) as { input: string[] };
      await sleep(hold(input));
      return response;
    } finally {
      counts.open -= 1;
    }
  };
  return { counts, fetch: countingFetch };
}

function createEmbedder(concurrency: number, fetchLike: FetchLike, maxRetries = 3) {
  return new OpenAiCompatibleEmbedder(
    {
      provider: 'openai-compatible',
      baseUrl: server.baseUrl,
      model: 'fake-embedding-model',
      batchSize: 2,
      concurrency,
      timeoutMs: 5_000,
      maxRetries,
      maxInputTokens: 8191,
    },
    { fetch: fetchLike, retry: { baseDelayMs: 1, maxDelayMs: 5 } },
  );
}

const texts = Array.from({ length: 14 }, (_, i) => `message ${i} about the lighthouse`);

test('a backlog goes out `concurrency` requests at a time, never more, with every vector on its own text', async () => {
  const { counts, fetch } = createCountingFetch(() => 20);
  const vectors = await createEmbedder(3, fetch).embed(texts);
  assert.equal(counts.most, 3, 'three requests open at once, not one after another and not all seven');
  assert.equal(server.requests.length, 7);
  assert.deepEqual(
    vectors,
    texts.map((text) => server.vectorFor(text)),
  );
});

test('a request that fails is retried alone: the other batches are sent once', async () => {
  server.failNext({ kind: 'status', status: 500 });
  const { fetch } = createCountingFetch(() => 5);
  const vectors = await createEmbedder(4, fetch).embed(texts);
  assert.equal(server.requests.length, 8, 'seven batches and one retry');
  const sent = server.requests.map((request) => request.input.join('|'));
  const twice = sent.filter((batch, i) => sent.indexOf(batch) !== i);
  assert.deepEqual(twice, [server.requests[0]!.input.join('|')], 'only the failed batch went again');
  assert.deepEqual(
    vectors,
    texts.map((text) => server.vectorFor(text)),
  );
});

test('a request that fails for good fails the call with its error, and the batches not yet sent are not sent', async () => {
  // The first batch is refused for good (HTTP 401 is never retried); every other answer takes 200 ms.
  const refusing: FetchLike = async (url, init) => {
    const { input } = JSON.parse(String(init.body)) as { input: string[] };
    if (input[0] === texts[0]) return new Response('{"error":{"message":"bad key"}}', { status: 401 });
    await sleep(200);
    return fetch(url, init);
  };
  const error = await createEmbedder(2, refusing)
    .embed(texts)
    .then(
      () => assert.fail('expected the call to fail'),
      (caught: unknown) => caught,
    );
  assert.ok(error instanceof ProviderError);
  assert.match(error.message, /HTTP 401/);
  assert.ok(
    server.requests.length < 3,
    `at most the one batch in flight beside it was sent, got ${server.requests.length}`,
  );
});
