/** @module Tests for deriving a long chunk's vector from its parts' vectors instead of asking the model again. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CachedEmbedder } from '../embedding/cached-embedder.js';
import type { EmbedOptions, Embedder } from '../embedding/embedder.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { poolMean } from '../embedding/pool-mean.js';
import { WindowedEmbedder } from '../embedding/windowed-embedder.js';
import { meterEmbedder } from '../metrics/metered-embedder.js';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import type { EmbeddedParts } from '../parts/parts-index.js';
import { deriveChunkVectors } from './derive-chunk-vectors.js';

const MAX_WORDS = 8;
const countWords = (text: string) => text.split(/\s+/).filter((word) => word !== '').length;

/** A model that reads MAX_WORDS words (as USE-lite reads 128 tokens), behind the product's windowing. */
function createWindowedModel() {
  const hashing = new HashingEmbedder({ dimensions: 32 });
  const sent: string[] = [];
  const model: Embedder = {
    model: 'test:small-window',
    dimensions: 32,
    inputWindow: { maxTokens: MAX_WORDS, countTokens: countWords },
    async embed(texts: readonly string[], _options?: EmbedOptions) {
      sent.push(...texts);
      return hashing.embed(texts);
    },
    probe: async () => {},
  };
  return { embedder: new WindowedEmbedder(model), sent, hashing };
}

function partsOf(chunkId: string, vectors: Float32Array[]): EmbeddedParts {
  return {
    points: vectors.map((_, i) => ({
      id: `${chunkId}-${i}`,
      payload: { chunkId, messageIds: String(i), text: `part ${i}`, timestamp: 0 },
    })),
    vectors,
  };
}

test('a chunk longer than the model window takes the pooled mean of its parts, without a model call', async () => {
  const { embedder: windowed, sent, hashing } = createWindowedModel();
  // As the service holds it, behind decorators: the model's window must pass through them.
  const metrics = createServiceMetrics(() => ({}) as never, { processMetrics: false });
  const embedder = meterEmbedder(new CachedEmbedder(windowed), metrics, 'chunk');
  const partVectors = await hashing.embed([
    'Anna: my sister moved to Lisbon',
    'Mythos: does she like it there',
  ]);
  const long = '[2023-05-08]\nAnna: my sister moved to Lisbon\nMythos: does she like it there';
  const [vector] = await deriveChunkVectors(
    embedder,
    [{ chunkId: 'c1', text: long }],
    partsOf('c1', partVectors),
  );
  assert.deepEqual(Array.from(vector!), Array.from(poolMean(partVectors)));
  assert.deepEqual(sent, []);
});

test('a chunk the model reads whole, or one without parts, is embedded as before, in one call, in order', async () => {
  const { embedder, sent, hashing } = createWindowedModel();
  const partVectors = await hashing.embed(['Anna: hi', 'Mythos: hello']);
  const chunks = [
    { chunkId: 'short', text: '[2023-05-08]\nAnna: hi\nMythos: hello' },
    { chunkId: 'no-parts', text: 'one two three four five six seven eight nine ten eleven' },
  ];
  const vectors = await deriveChunkVectors(embedder, chunks, partsOf('short', partVectors));
  assert.deepEqual(sent, [chunks[0]!.text, 'one two three four five six', 'seven eight nine ten eleven']);
  assert.deepEqual(Array.from(vectors[0]!), Array.from((await hashing.embed([chunks[0]!.text]))[0]!));
  assert.equal(vectors.length, 2);
});
