/** @module Tests that config selects the right embedder, and the embedder contract for the cheap embedders. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CachedEmbedder } from './cached-embedder.js';
import { createEmbedder } from './create-embedder.js';
import { describeEmbedderContract } from './test-support/embedder-contract.js';
import { startFakeOpenAiServer } from './test-support/fake-openai-server.js';

describe('createEmbedder', () => {
  test('builds the provider config names, with its model identity', () => {
    assert.equal(createEmbedder({ provider: 'hashing', dimensions: 32 }).model, 'hashing:words-trigrams-v1');
    assert.equal(createEmbedder({ provider: 'hashing', dimensions: 32 }).dimensions, 32);
    const offline = createEmbedder({ provider: 'offline' });
    assert.deepEqual([offline.model, offline.dimensions], ['offline:use-lite-512', 512]);
    const remote = createEmbedder({
      provider: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:11434/v1/',
      model: 'nomic-embed-text',
      batchSize: 16,
      timeoutMs: 1000,
      maxRetries: 0,
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
        timeoutMs: 1000,
        maxRetries: 0,
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
    timeoutMs: 5000,
    maxRetries: 0,
  });
  return { embedder, close: () => server.close() };
});

describeEmbedderContract('cached hashing', async () => ({
  embedder: new CachedEmbedder(createEmbedder({ provider: 'hashing', dimensions: 16 }), { maxEntries: 2 }),
}));
