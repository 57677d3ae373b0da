/**
 * @module Tests for how vectors travel: base64 asked and decoded exactly, and the fall back to floats, once and
 * remembered, for an endpoint that answers floats anyway or refuses the field.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { type FakeOpenAiServer, startFakeOpenAiServer } from '../test-support/fake-openai-server.js';
import { type OpenAiCompatibleConfig, OpenAiCompatibleEmbedder } from './openai-compatible-embedder.js';

const servers: FakeOpenAiServer[] = [];
after(() => Promise.all(servers.map((server) => server.close())));

async function setUp(base64: 'answer' | 'ignore' | 'refuse') {
  const server = await startFakeOpenAiServer({ dimensions: 3072, base64 });
  servers.push(server);
  const config: OpenAiCompatibleConfig = {
    provider: 'openai-compatible',
    baseUrl: server.baseUrl,
    model: 'fake-embedding-model',
    batchSize: 64,
    concurrency: 4,
    timeoutMs: 5_000,
    maxRetries: 0,
    maxInputTokens: 8191,
  };
  return { server, embedder: new OpenAiCompatibleEmbedder(config) };
}

/** The encoding each recorded request asked for (undefined: the API's default, floats). */
const askedFormats = (server: FakeOpenAiServer) =>
  server.requests.map((request) => (request.body as { encoding_format?: string }).encoding_format);

const TEXTS = ['the lighthouse keeper', 'rain over Lisbon', 'her sister plays piano'];

describe('embedding encoding', () => {
  test('asks for base64 and decodes the exact float32 vectors', async () => {
    const { server, embedder } = await setUp('answer');
    const vectors = await embedder.embed(TEXTS);
    assert.deepEqual(askedFormats(server), ['base64']);
    assert.deepEqual(
      vectors,
      TEXTS.map((text) => server.vectorFor(text)),
    );
    await embedder.embed(['again']);
    assert.deepEqual(askedFormats(server), ['base64', 'base64']);
  });

  test('an endpoint that answers floats anyway is read as floats and asked for floats from then on', async () => {
    const { server, embedder } = await setUp('ignore');
    assert.deepEqual(
      await embedder.embed(TEXTS),
      TEXTS.map((text) => server.vectorFor(text)),
    );
    assert.deepEqual(await embedder.embed(['again']), [server.vectorFor('again')]);
    assert.deepEqual(askedFormats(server), ['base64', undefined]);
  });

  test('an endpoint that refuses base64 is asked again in floats, once, and remembered', async () => {
    const { server, embedder } = await setUp('refuse');
    assert.deepEqual(
      await embedder.embed(TEXTS),
      TEXTS.map((text) => server.vectorFor(text)),
    );
    assert.deepEqual(askedFormats(server), ['base64', undefined]);
    assert.deepEqual(await embedder.embed(['again']), [server.vectorFor('again')]);
    assert.deepEqual(askedFormats(server), ['base64', undefined, undefined]);
  });

  test('a 400 that floats get too is the error, and base64 stays asked for', async () => {
    const { server, embedder } = await setUp('answer');
    server.failNext({ kind: 'status', status: 400, message: 'input too long for context' }, 2);
    await assert.rejects(embedder.embed(['x']), /HTTP 400.*input too long/);
    assert.deepEqual(askedFormats(server), ['base64', undefined]);
    assert.deepEqual(await embedder.embed(['y']), [server.vectorFor('y')]);
    assert.deepEqual(askedFormats(server), ['base64', undefined, 'base64']);
  });

  test('a rejected key is not retried in floats', async () => {
    const { server, embedder } = await setUp('answer');
    server.failNext({ kind: 'status', status: 401 });
    await assert.rejects(embedder.embed(['x']), /HTTP 401/);
    assert.deepEqual(askedFormats(server), ['base64']);
  });
});
