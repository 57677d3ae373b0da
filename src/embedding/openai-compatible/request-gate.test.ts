/**
 * @module Tests for the embedder's shared gate against a rate-limited endpoint: four requests at once behind a
 * one-request-per-window limit still embed everything within a small retry budget, and the bound narrows.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRateLimitedFetch } from '../test-support/rate-limited-fetch.js';
import { OpenAiCompatibleEmbedder } from './openai-compatible-embedder.js';
import type { FetchLike } from './post-embeddings.js';

function createEmbedder(concurrency: number, maxRetries: number, fetchLike: FetchLike) {
  return new OpenAiCompatibleEmbedder(
    {
      provider: 'openai-compatible',
      baseUrl: 'http://embed.test/v1',
      model: 'm',
      batchSize: 1,
      concurrency,
      timeoutMs: 5_000,
      maxRetries,
      maxInputTokens: 512,
    },
    { fetch: fetchLike },
  );
}

const texts = Array.from({ length: 8 }, (_, i) => `text ${i}`);

for (const concurrency of [1, 4]) {
  test(`concurrency ${concurrency} behind a one-request-per-window limit embeds all with 2 retries`, async () => {
    const endpoint = createRateLimitedFetch(40);
    const vectors = await createEmbedder(concurrency, 2, endpoint.fetch).embed(texts);
    assert.equal(vectors.length, texts.length);
    // Without a shared hold, the losers of each window all came back at once and lost again.
    assert.ok(
      endpoint.stats.limited <= texts.length * 2,
      `${endpoint.stats.limited} 429s for ${texts.length} texts`,
    );
  });
}

for (const queued of [['chunk a'], ['chunk a', 'chunk b']]) {
  test(`a call aborted while its ${queued.length} batch(es) wait for a slot rejects before the slot frees`, {
    timeout: 5_000,
  }, async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let sent = 0;
    const holding: FetchLike = async (_url, init) => {
      sent += 1;
      const { input } = JSON.parse(String(init.body)) as { input: string[] };
      if (input[0] === 'held') await released;
      const data = input.map((_text, index) => ({ index, embedding: [1, 2, 3, 4] }));
      return new Response(JSON.stringify({ data }), { status: 200 });
    };
    const embedder = createEmbedder(1, 0, holding);
    const held = embedder.embed(['held']);
    const controller = new AbortController();
    const aborted = embedder.embed(queued, { signal: controller.signal });
    controller.abort(new Error('forgotten'));
    // The slot is still held: before the fix this waited for it (a forget waited out another caller's 429).
    await assert.rejects(aborted, /forgotten/);
    release();
    assert.equal((await held).length, 1);
    assert.equal(sent, 1, 'the aborted batches were sent');
  });
}
