/**
 * @module The in-process service writes a shared collection in its own layout, as serve does: a bot mapped to
 * starrysky180111's hybrid fork's collection (named `dense` vector, sparse `bm25`) gets points the fork finds.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import { createFakeServiceDeps, type FakeServiceDeps } from './test-support/fake-service-deps.js';

describe("the in-process service and a SillyTavern fork's collection", () => {
  let fake: FakeServiceDeps;
  before(async () => {
    fake = await createFakeServiceDeps({ bots: [testBot('miku', { collection: 'mem_miku' })] });
  });
  after(() => fake.close());

  test("a saved memory lands in the fork's hybrid layout (dense and bm25)", async () => {
    await fake.store.createCollectionWithLayout('mem_miku', {
      vectors: { dense: 16 },
      sparseVectors: { bm25: 'idf' },
    });
    const saved = await fake.app.request('/save', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        bot: 'miku',
        messages: [
          {
            speaker_kind: 'user',
            speaker_name: 'Helen',
            text: 'The lighthouse key is under the blue stone',
            message_id: 'm1',
            ts: 1_767_225_600_000,
          },
          { speaker_kind: 'self', text: 'I will keep it safe', message_id: 'm2', ts: 1_767_225_601_000 },
        ],
      }),
    });
    assert.equal(saved.status, 200, await saved.text());
    await fake.writer.runOnce({ flush: true });
    const held = fake.store.heldPoints('mem_miku');
    assert.ok(held.length > 0, 'the memory was written');
    assert.deepEqual(
      held.map((point) => Object.keys(point.vectors).sort()),
      held.map(() => ['bm25', 'dense']),
    );
  });
});
