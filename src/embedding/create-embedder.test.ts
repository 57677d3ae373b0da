/** @module Tests that config selects the right embedder, and the embedder contract for the cheap embedders. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CachedEmbedder } from './cached-embedder.js';
import { createEmbedder } from './create-embedder.js';
import { countCl100kTokens } from './openai-compatible/cl100k-token-counter.js';
import { describeEmbedderContract } from './test-support/embedder-contract.js';
import { startFakeOpenAiServer } from './test-support/fake-openai-server.js';

describe('createEmbedder', () => {
  test('builds the provider config names, with its model identity', () => {
    assert.equal(createEmbedder({ provider: 'hashing', dimensions: 32 }).model, 'hashing:words-trigrams-v1');
    assert.equal(createEmbedder({ provider: 'hashing', dimensions: 32 }).dimensions, 32);
    const offline = createEmbedder({ provider: 'offline' });
    assert.deepEqual([offline.model, offline.dimensions], ['offline:use-lite-512', 512]);
    const distilled = createEmbedder({ provider: 'distilled' });
    assert.deepEqual([distilled.model, distilled.dimensions], ['distilled:use-lite-static-256-v1', 256]);
    const remote = createEmbedder({
      provider: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:11434/v1/',
      model: 'nomic-embed-text',
      batchSize: 16,
      concurrency: 4,
      timeoutMs: 1000,
      maxRetries: 0,
      maxInputTokens: 512,
    });
    assert.deepEqual([remote.model, remote.dimensions], ['openai-compatible:nomic-embed-text', undefined]);
  });

  test('sends OpenAI-compatible requests through the fetch it is given', async () => {
    const urls: string[] = [];
    const embedder = createEmbedder(
      {
        provider: 'openai-compatible',
        baseUrl: 'http://embed.test/v1',
        model: 'm',
        batchSize: 8,
        concurrency: 4,
        timeoutMs: 1000,
        maxRetries: 0,
        maxInputTokens: 512,
      },
      {
        fetch: async (url) => {
          urls.push(url);
          return Response.json({ data: [{ index: 0, embedding: [0.6, 0.8] }] });
        },
      },
    );
    const [vector] = await embedder.embed(['hi']);
    assert.deepEqual(urls, ['http://embed.test/v1/embeddings']);
    assert.deepEqual([...vector!], [Math.fround(0.6), Math.fround(0.8)]);
  });
});

test('an OpenAI-compatible endpoint is sent windows within embedding.maxInputTokens, never a cut text', async () => {
  const server = await startFakeOpenAiServer({ dimensions: 8 });
  try {
    const embedder = createEmbedder({
      provider: 'openai-compatible',
      baseUrl: server.baseUrl,
      model: server.models[0]!,
      batchSize: 64,
      concurrency: 4,
      timeoutMs: 5000,
      maxRetries: 0,
      maxInputTokens: 16,
    });
    const chunk = Array.from(
      { length: 8 },
      (_, i) => `Anna: this is message ${i} about Lisbon and piano`,
    ).join('\n');
    const [vector] = await embedder.embed([chunk, 'short']);
    const sent = server.requests.flatMap((request) => request.input);
    assert.ok(sent.length > 2, 'the long text went out in several windows');
    for (const input of sent) assert.ok(countCl100kTokens(input) <= 16, `over the window: ${input}`);
    assert.equal(sent.slice(0, -1).join('\n'), chunk);
    assert.equal(vector!.length, 8);
  } finally {
    await server.close();
  }
});

test('cl100k_base counts as OpenAI does', () => {
  assert.equal(countCl100kTokens('hello world'), 2);
  assert.equal(countCl100kTokens(''), 0);
});

describeEmbedderContract('hashing', async () => ({
  embedder: createEmbedder({ provider: 'hashing', dimensions: 64 }),
}));

describeEmbedderContract('openai-compatible (fake server)', async () => {
  const server = await startFakeOpenAiServer({ dimensions: 24, shuffleOrder: true });
  const embedder = createEmbedder({
    provider: 'openai-compatible',
    baseUrl: server.baseUrl,
    model: server.models[0]!,
    batchSize: 2,
    concurrency: 4,
    timeoutMs: 5000,
    maxRetries: 0,
    maxInputTokens: 512,
  });
  return { embedder, close: () => server.close() };
});

describeEmbedderContract('cached hashing', async () => ({
  embedder: new CachedEmbedder(createEmbedder({ provider: 'hashing', dimensions: 16 }), { maxEntries: 2 }),
}));
