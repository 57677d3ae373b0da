import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TEST_DIMENSIONS } from '../config/test-support/test-bot.js';
import { ScriptedEmbedder } from '../embedding/test-support/scripted-embedder.js';
import { startTestService } from '../service/test-support/start-test-service.js';

test('a recall that cannot finish in time answers 503 recall_timeout, and stops waiting for the embedder', async () => {
  const embedder = new ScriptedEmbedder(TEST_DIMENSIONS);
  embedder.delayMs = 60_000; // a provider that stopped answering
  const service = await startTestService({ embedder, recallDeadlineMs: 150 });
  try {
    const response = await service.post('/retrieve', { bot: 'mythos', query_text: 'anything' });
    assert.equal(response.status, 503);
    assert.equal(response.json.error.code, 'recall_timeout');
    assert.equal(embedder.aborts, 1);
  } finally {
    await service.close();
  }
});
