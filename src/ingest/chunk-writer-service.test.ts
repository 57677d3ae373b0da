import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { QdrantClient } from '@qdrant/js-client-rest';
import { ScriptedEmbedder } from '../embedding/test-support/scripted-embedder.js';
import { startTestService } from '../service/test-support/start-test-service.js';
import { TEST_DIMENSIONS, testBot } from '../config/test-support/test-bot.js';
import { partsCollectionName } from '../parts/parts-collection-name.js';

const DAY = 1.7e12;
const user = (id: string, text: string, channel: string) => ({
  speaker_kind: 'user',
  text,
  message_id: id,
  channel_id: channel,
  ts: DAY,
});

describe('chunk writer in the running service', () => {
  test('a chunk the provider refuses does not hold back the rest of its batch', async () => {
    const embedder = new ScriptedEmbedder(TEST_DIMENSIONS);
    embedder.refuse = (text) => text.includes('TOO LONG');
    const service = await startTestService({ embedder });
    try {
      await service.post('/save', {
        bot: 'mythos',
        messages: [
          user('bad', 'TOO LONG for this model', 'c1'),
          user('good', 'My sister Anna lives in Lisbon', 'c2'),
        ],
      });
      await service.writer.runOnce({ flush: true });
      const { points } = await new QdrantClient({ url: service.storeUrl!, checkCompatibility: false }).scroll(
        'mem_mythos',
        { with_payload: true },
      );
      assert.deepEqual(
        points.map((p) => p.payload!.messageIds),
        ['good'],
      );
    } finally {
      await service.close();
    }
  });

  test('a batch asks the model once for its chunks and their parts (one round trip to a remote endpoint)', async () => {
    const embedder = new ScriptedEmbedder(TEST_DIMENSIONS);
    const service = await startTestService({ embedder });
    try {
      await service.post('/save', {
        bot: 'mythos',
        messages: [
          user('a1', 'My sister Anna lives in Lisbon', 'c1'),
          user('a2', 'She has a kitten named Miso', 'c1'),
          user('b1', 'The regatta is on Sunday', 'c2'),
        ],
      });
      await service.writer.runOnce({ flush: true });
      const client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
      assert.equal((await client.count('mem_mythos')).count, 2);
      assert.ok(
        (await client.count(partsCollectionName('mem_mythos'))).count >= 2,
        'the parts were stored too',
      );
      // Two chunks with their parts in one batch: one call holding both kinds of text.
      assert.deepEqual(embedder.calls.length, 1, `calls of ${embedder.calls.join(', ')} texts`);
      assert.ok(embedder.calls[0]! >= 4);
    } finally {
      await service.close();
    }
  });

  test('a forget aborts a slow background write instead of waiting for it, and the write is redone after', async () => {
    const embedder = new ScriptedEmbedder(TEST_DIMENSIONS);
    const service = await startTestService({ embedder });
    try {
      await service.post('/save', {
        bot: 'mythos',
        messages: [user('k1', 'keep this one about kites', 'keep')],
      });
      embedder.delayMs = 10_000;
      const inFlight = service.writer.runOnce({ flush: true });
      await embedder.until(() => embedder.calls.length === 1);
      embedder.delayMs = 0;
      const forgot = await service.post('/forget', { bot: 'mythos', message_ids: ['unrelated'] });
      assert.equal(forgot.status, 200);
      assert.equal(embedder.aborts, 1, 'the slow write was aborted for the forget');
      await inFlight;
      const recalled = await service.post('/retrieve', { bot: 'mythos', query_text: 'kites' });
      assert.match(recalled.json.formatted, /keep this one about kites/, 'and written again afterwards');
    } finally {
      await service.close();
    }
  });

  test("a person's forget-me rewrites their chunks in batches, not one huge embed call", async () => {
    const embedder = new ScriptedEmbedder(TEST_DIMENSIONS);
    const service = await startTestService({
      embedder,
      bots: [testBot('mythos', { chunk: { minChars: 10_000, maxChars: 20_000, idleMs: 60_000 } })],
    });
    try {
      const messages = Array.from({ length: 80 }, (_, i) => [
        { ...user(`u${i}`, `Helen talks in room ${i}`, `room${i}`), discord_user_id: 'helen' },
        { ...user(`o${i}`, `Bob answers in room ${i}`, `room${i}`), discord_user_id: 'bob' },
      ]).flat();
      await service.post('/save', { bot: 'mythos', source: 'discord', messages });
      await service.writer.runOnce({ flush: true });
      embedder.calls.length = 0;
      const forgot = await service.post('/forget', { bot: 'mythos', discord_user_id: 'helen' });
      assert.equal(forgot.json.points_rewritten, 80);
      // A batch is 32 chunks, each left with one message, so one part: its call holds 32 chunk and 32 part texts.
      assert.ok(Math.max(...embedder.calls) <= 2 * 32, `embed calls: ${embedder.calls.join(', ')}`);
      assert.ok(embedder.calls.length >= 3, `embed calls: ${embedder.calls.join(', ')}`);
    } finally {
      await service.close();
    }
  });

  test('stop() ends the background loop: no embed call runs after it returned', async () => {
    const embedder = new ScriptedEmbedder(TEST_DIMENSIONS);
    const service = await startTestService({ embedder });
    try {
      const many = Array.from({ length: 40 }, (_, i) => user(`s${i}`, `message number ${i}`, `chan${i}`));
      embedder.delayMs = 30;
      await service.post('/save', { bot: 'mythos', messages: many });
      const background = service.writer.runOnce({ flush: true });
      await sleep(50);
      await service.writer.stop();
      const callsAtStop = embedder.calls.length;
      await background;
      await sleep(200);
      assert.equal(embedder.calls.length, callsAtStop);
    } finally {
      await service.close();
    }
  });
});
