/** @module Tests for reading whole texts through a model with a small input window: windows, pooling, batching. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { EmbedOptions, Embedder, InputWindow } from './embedder.js';
import { ProviderError } from '../errors/memory-pool-error.js';
import { HashingEmbedder } from './hashing/hashing-embedder.js';
import { poolMean } from './pool-mean.js';
import { QUERY_MAX_WINDOWS, WindowedEmbedder } from './windowed-embedder.js';

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

  test('a batch stays one call, and so do the windows of one long text', async () => {
    const batch = createTruncatingModel();
    await new WindowedEmbedder(batch.model).embed([LONG_CHUNK, 'short text']);
    assert.equal(batch.calls.length, 1);
    assert.equal(batch.calls[0]!.at(-1), 'short text');

    // The offline model runs a call marked as a query ahead of bulk work, one window at a time.
    const query = createTruncatingModel();
    await new WindowedEmbedder(query.model).embed([LONG_CHUNK], { query: true });
    assert.equal(query.calls.length, 1);
    assert.ok(query.calls[0]!.length > 1);
  });

  test('a text its tokenizer cannot count fails alone, as a non-retryable provider error', async () => {
    const { model } = createTruncatingModel();
    const refusing: Embedder = {
      ...model,
      inputWindow: {
        maxTokens: MAX_WORDS,
        countTokens: (text) => {
          if (text.includes('<|bad|>')) throw new Error('unknown special token');
          return countWords(text);
        },
      },
    };
    const windowed = new WindowedEmbedder(refusing);
    await assert.rejects(windowed.embed(['fine', 'a <|bad|> text']), (error: unknown) => {
      assert.ok(error instanceof ProviderError);
      assert.equal(error.retryable, false);
      assert.match(error.message, /could not count the tokens/);
      return true;
    });
    assert.equal((await windowed.embed(['fine'])).length, 1);
  });

  test('a recall query reaches the model as at most QUERY_MAX_WINDOWS windows, its first, in one call', async () => {
    const { model, calls } = createTruncatingModel();
    const windowed = new WindowedEmbedder(model);
    const words = Array.from({ length: 3_000 }, (_, i) => `w${i}`);
    const query = words.join(' '); // ~20 kB: 250 windows of MAX_WORDS words
    await windowed.embed([query], { query: true });
    assert.equal(QUERY_MAX_WINDOWS, 4);
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.length, QUERY_MAX_WINDOWS);
    assert.ok(calls[0]![0]!.startsWith('w0 w1 '), 'the first windows are the ones read');
    // The same text written as a chunk is still read whole.
    calls.length = 0;
    await windowed.embed([query]);
    assert.ok(calls.flat().length >= 3_000 / MAX_WORDS);
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
