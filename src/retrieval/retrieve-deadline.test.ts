import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EmbedOptions, Embedder } from '../embedding/embedder.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { startTestService, TEST_DIMENSIONS } from '../server/test-support/start-test-service.js';

/** An embedder that hangs until aborted, like a provider that stopped answering. */
class HangingEmbedder implements Embedder {
  readonly model = new HashingEmbedder({ dimensions: TEST_DIMENSIONS }).model;
  readonly dimensions = TEST_DIMENSIONS;
  aborted = false;
  async probe(): Promise<void> {}
  async embed(_texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]> {
    try {
      await sleep(60_000, undefined, options?.signal ? { signal: options.signal } : {});
    } catch (error) {
      this.aborted = true;
      throw error;
    }
    return [];
  }
}

test('a recall that cannot finish in time answers 503 recall_timeout, and stops waiting for the embedder', async () => {
  const embedder = new HangingEmbedder();
  const service = await startTestService({ embedder, recallDeadlineMs: 150 });
  try {
    const response = await service.post('/retrieve', { bot: 'mythos', query_text: 'anything' });
    assert.equal(response.status, 503);
    assert.equal(response.json.error.code, 'recall_timeout');
    assert.equal(embedder.aborted, true);
  } finally {
    await service.close();
  }
});
