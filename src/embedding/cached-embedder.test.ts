/** @module Tests for the query-embedding cache: hits skip the provider, LRU eviction, in-flight sharing. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ProviderError } from '../errors/memory-pool-error.js';
import { CachedEmbedder } from './cached-embedder.js';
import type { Embedder } from './embedder.js';
import { HashingEmbedder } from './hashing/hashing-embedder.js';

/** A hashing embedder that records each call and can be held until the test releases it. */
function createRecordingEmbedder() {
  const hashing = new HashingEmbedder({ dimensions: 8 });
  const calls: string[][] = [];
  let gate: Promise<void> = Promise.resolve();
  let failNext = false;
  const embedder: Embedder = {
    model: hashing.model,
    dimensions: hashing.dimensions,
    inputWindow: hashing.inputWindow,
    async embed(texts) {
      calls.push([...texts]);
      await gate;
      if (failNext) {
        failNext = false;
        throw new ProviderError('embedding_failed', 'provider down', { retryable: true });
      }
      return hashing.embed(texts);
    },
    probe: async () => {},
  };
  return {
    embedder,
    calls,
    hashing,
    hold() {
      let release!: () => void;
      gate = new Promise((resolve) => {
        release = resolve;
      });
      return release;
    },
    failOnce() {
      failNext = true;
    },
  };
}

describe('CachedEmbedder', () => {
  test('answers a repeated query from the cache and only sends the new texts', async () => {
    const inner = createRecordingEmbedder();
    const cached = new CachedEmbedder(inner.embedder);
    const first = await cached.embed(['where is my bike']);
    const second = await cached.embed(['what is my name', 'where is my bike']);
    assert.deepEqual(inner.calls, [['where is my bike'], ['what is my name']]);
    assert.deepEqual(second[1], first[0]);
    assert.deepEqual(second[0], inner.hashing.embedOne('what is my name'));
    assert.deepEqual(cached.stats, { hits: 1, misses: 2, size: 2 });
    assert.equal(cached.model, inner.embedder.model);
    assert.equal(cached.dimensions, 8);
  });

  test('evicts the least recently used entry when full', async () => {
    const inner = createRecordingEmbedder();
    const cached = new CachedEmbedder(inner.embedder, { maxEntries: 2 });
    await cached.embed(['a']);
    await cached.embed(['b']);
    await cached.embed(['a']); // a is now the most recent
    await cached.embed(['c']); // evicts b
    inner.calls.length = 0;
    await cached.embed(['a', 'b', 'c']);
    assert.deepEqual(inner.calls, [['b']]);
  });

  test('shares one provider call between concurrent identical queries', async () => {
    const inner = createRecordingEmbedder();
    const cached = new CachedEmbedder(inner.embedder);
    const release = inner.hold();
    const both = Promise.all([cached.embed(['same query']), cached.embed(['same query'])]);
    release();
    const [[a], [b]] = await both;
    assert.equal(inner.calls.length, 1);
    assert.deepEqual(a, b);
  });

  test('returns copies, so mutating a result does not change later answers', async () => {
    const cached = new CachedEmbedder(createRecordingEmbedder().embedder);
    const [first] = await cached.embed(['x']);
    first!.fill(0);
    const [again] = await cached.embed(['x']);
    assert.notDeepEqual(again, first);
  });

  test('does not cache a failure: the next call asks the provider again', async () => {
    const inner = createRecordingEmbedder();
    const cached = new CachedEmbedder(inner.embedder);
    inner.failOnce();
    await assert.rejects(cached.embed(['x']), /provider down/);
    const [vector] = await cached.embed(['x']);
    assert.deepEqual(vector, inner.hashing.embedOne('x'));
    assert.equal(inner.calls.length, 2);
  });

  test('a caller whose signal aborts stops waiting without failing the others sharing the call', async () => {
    const inner = createRecordingEmbedder();
    const cached = new CachedEmbedder(inner.embedder);
    const release = inner.hold();
    const controller = new AbortController();
    const impatient = cached.embed(['q'], { signal: controller.signal });
    const patient = cached.embed(['q']);
    controller.abort(new Error('client left'));
    await assert.rejects(impatient, /client left/);
    release();
    assert.deepEqual((await patient)[0], inner.hashing.embedOne('q'));
  });
});
