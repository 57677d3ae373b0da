/** @module Tests for a batch's one model call: parts and chunks together, a long chunk derived from its parts. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CachedEmbedder } from '../embedding/cached-embedder.js';
import type { EmbedOptions, Embedder } from '../embedding/embedder.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { poolMean } from '../embedding/pool-mean.js';
import { WindowedEmbedder } from '../embedding/windowed-embedder.js';
import { meterEmbedder } from '../metrics/metered-embedder.js';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import type { PartPoint } from '../parts/build-part-points.js';
import { embedChunksAndParts } from './derive-chunk-vectors.js';

const MAX_WORDS = 8;
const countWords = (text: string) => text.split(/\s+/).filter((word) => word !== '').length;

/** A model that reads MAX_WORDS words (as USE-lite reads 128 tokens), behind the product's windowing. */
function createWindowedModel() {
  const hashing = new HashingEmbedder({ dimensions: 32 });
  const sent: string[] = [];
  const calls: number[] = [];
  const model: Embedder = {
    model: 'test:small-window',
    dimensions: 32,
    inputWindow: { maxTokens: MAX_WORDS, countTokens: countWords },
    async embed(texts: readonly string[], _options?: EmbedOptions) {
      sent.push(...texts);
      calls.push(texts.length);
      return hashing.embed(texts);
    },
    probe: async () => {},
  };
  return { embedder: new WindowedEmbedder(model), sent, calls, hashing };
}

function partsOf(chunkId: string, texts: readonly string[]): PartPoint[] {
  return texts.map((text, i) => ({
    id: `${chunkId}-${i}`,
    payload: { chunkId, messageIds: String(i), text, timestamp: 0 },
  }));
}

test('a chunk longer than the model window takes the pooled mean of its parts; only the parts are embedded', async () => {
  const { embedder: windowed, sent, hashing } = createWindowedModel();
  // As the service holds it, behind decorators: the model's window must pass through them.
  const metrics = createServiceMetrics(() => ({}) as never, { processMetrics: false });
  const embedder = meterEmbedder(new CachedEmbedder(windowed), metrics, 'chunk');
  const partTexts = ['Anna: my sister moved to Lisbon', 'Mythos: does she like it there'];
  const partVectors = await hashing.embed(partTexts);
  const long = '[2023-05-08]\nAnna: my sister moved to Lisbon\nMythos: does she like it there';
  const { chunks, parts } = await embedChunksAndParts(embedder, [{ chunkId: 'c1', text: long }], {
    points: partsOf('c1', partTexts),
    embedder,
  });
  assert.deepEqual(Array.from(chunks[0]!), Array.from(poolMean(partVectors)));
  assert.deepEqual(
    parts?.vectors.map((v) => Array.from(v)),
    partVectors.map((v) => Array.from(v)),
  );
  assert.deepEqual(sent, partTexts);
});

test('parts and the chunks the model reads whole go out as one call, parts first, chunks in order', async () => {
  const { embedder, sent, calls, hashing } = createWindowedModel();
  const partTexts = ['Anna: hi', 'Mythos: hello'];
  const chunks = [
    { chunkId: 'short', text: '[2023-05-08]\nAnna: hi\nMythos: hello' },
    { chunkId: 'no-parts', text: 'one two three four five six seven eight nine ten eleven' },
  ];
  const result = await embedChunksAndParts(embedder, chunks, {
    points: partsOf('short', partTexts),
    embedder,
  });
  // One call to the windowing embedder; it sends the long text to the model in two windows.
  assert.deepEqual(sent, [
    ...partTexts,
    chunks[0]!.text,
    'one two three four five six',
    'seven eight nine ten eleven',
  ]);
  assert.equal(calls.length, 1);
  assert.deepEqual(Array.from(result.chunks[0]!), Array.from((await hashing.embed([chunks[0]!.text]))[0]!));
  assert.equal(result.chunks.length, 2);
  assert.equal(result.parts?.vectors.length, 2);
});

test('parts of another model are embedded apart, and no chunk is derived from them', async () => {
  const chunkModel = createWindowedModel();
  const partsModel = createWindowedModel();
  const long = 'one two three four five six seven eight nine ten eleven';
  const result = await embedChunksAndParts(chunkModel.embedder, [{ chunkId: 'c1', text: long }], {
    points: partsOf('c1', ['one two three', 'four five six']),
    embedder: partsModel.embedder,
  });
  assert.deepEqual(partsModel.sent, ['one two three', 'four five six']);
  assert.deepEqual(chunkModel.sent, ['one two three four five six', 'seven eight nine ten eleven']);
  assert.equal(result.chunks.length, 1);
});

test('without a parts index every chunk is embedded whole', async () => {
  const { embedder, sent } = createWindowedModel();
  const result = await embedChunksAndParts(embedder, [{ chunkId: 'c1', text: 'Anna: hi' }], undefined);
  assert.deepEqual(sent, ['Anna: hi']);
  assert.equal(result.parts, undefined);
});
