/** @module Tests for reading whole texts through a model with a small input window: windows, pooling, batching. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { EmbedOptions, Embedder, InputWindow } from './embedder.js';
import { HashingEmbedder } from './hashing/hashing-embedder.js';
import { poolMean } from './pool-mean.js';
import { WindowedEmbedder } from './windowed-embedder.js';

const MAX_WORDS = 12;
const countWords = (text: string) => text.split(/\s+/).filter((word) => word !== '').length;

/**
 * A model that reads only the first MAX_WORDS words of each text, as USE-lite reads only its first 128
 * tokens, and records what it was sent.
 */
function createTruncatingModel() {
  const hashing = new HashingEmbedder({ dimensions: 64 });
  const calls: string[][] = [];
  const inputWindow: InputWindow = { maxTokens: MAX_WORDS, countTokens: countWords };
  const model: Embedder = {
    model: 'test:truncating',
    dimensions: 64,
    inputWindow,
    async embed(texts: readonly string[], _options?: EmbedOptions) {
      calls.push([...texts]);
      return hashing.embed(texts.map((text) => text.split(/\s+/).slice(0, MAX_WORDS).join(' ')));
    },
    probe: async () => {},
  };
  return { model, calls };
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

const LONG_CHUNK = [
  '[2023-05-08]',
  'Anna: my sister moved to Lisbon last spring',
  'Mythos: does she like the city so far',
  'Anna: she loves it and teaches piano there now',
  'Mythos: that sounds wonderful for her',
  'Anna: our dog Biscuit stayed with me in Berlin',
].join('\n');

describe('WindowedEmbedder', () => {
  test('a text past the window is read to its end: its last line moves the vector', async () => {
    const { model } = createTruncatingModel();
    const windowed = new WindowedEmbedder(model);
    const query = 'Anna dog Biscuit stayed Berlin';
    const [truncated] = await model.embed([LONG_CHUNK]);
    const [whole] = await windowed.embed([LONG_CHUNK]);
    const [queryVector] = await model.embed([query]);
    // The model alone never sees the last line; through the decorator the chunk matches a question about it.
    assert.ok(dot(whole!, queryVector!) > dot(truncated!, queryVector!) + 0.1);
  });

  test('pools the windows it sent, each within the window: mean, then unit length', async () => {
    const { model, calls } = createTruncatingModel();
    const [pooled] = await new WindowedEmbedder(model).embed([LONG_CHUNK]);
    const windows = calls.flat();
    assert.ok(windows.length > 1);
    for (const window of windows) assert.ok(countWords(window) <= MAX_WORDS, `window too long: ${window}`);
    assert.deepEqual(windows.join('\n').split(/\s+/), LONG_CHUNK.split(/\s+/));
    const expected = poolMean(await model.embed(windows));
    assert.ok(pooled!.every((value, i) => Math.abs(value - expected[i]!) < 1e-6));
    assert.ok(Math.abs(dot(pooled!, pooled!) - 1) < 1e-5);
  });

  test('texts that fit pass through in one call with the model’s own vectors', async () => {
    const { model, calls } = createTruncatingModel();
    const texts = ['Anna lives in Lisbon', 'Biscuit is a dog'];
    const vectors = await new WindowedEmbedder(model).embed(texts);
    assert.deepEqual(calls, [texts]);
    assert.deepEqual(vectors, await model.embed(texts));
  });

  test('a batch stays one call; one long text (a query) goes window by window', async () => {
    const batch = createTruncatingModel();
    await new WindowedEmbedder(batch.model).embed([LONG_CHUNK, 'short text']);
    assert.equal(batch.calls.length, 1);
    assert.equal(batch.calls[0]!.at(-1), 'short text');

    // The offline model runs one-text calls (queries) ahead of queued chunk batches: keep a query one-text.
    const query = createTruncatingModel();
    await new WindowedEmbedder(query.model).embed([LONG_CHUNK]);
    assert.ok(query.calls.length > 1);
    assert.ok(query.calls.every((call) => call.length === 1));
  });

  test('keeps the model’s identity and reads any length itself', () => {
    const { model } = createTruncatingModel();
    const windowed = new WindowedEmbedder(model);
    assert.deepEqual([windowed.model, windowed.dimensions], ['test:truncating', 64]);
    assert.equal(windowed.inputWindow.maxTokens, Number.POSITIVE_INFINITY);
    assert.equal(windowed.modelWindow.maxTokens, MAX_WORDS);
  });
});

describe('poolMean', () => {
  test('averages element-wise and scales to unit length; refuses mixed sizes', () => {
    const pooled = poolMean([Float32Array.of(1, 0), Float32Array.of(0, 1)]);
    assert.ok(Math.abs(pooled[0]! - Math.SQRT1_2) < 1e-6 && Math.abs(pooled[1]! - Math.SQRT1_2) < 1e-6);
    assert.throws(() => poolMean([Float32Array.of(1), Float32Array.of(1, 2)]), RangeError);
    assert.throws(() => poolMean([]), RangeError);
  });
});
