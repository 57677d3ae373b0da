import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { QdrantClient } from '@qdrant/js-client-rest';
import { TEST_DIMENSIONS } from '../config/test-support/test-bot.js';
import { ScriptedEmbedder } from '../embedding/test-support/scripted-embedder.js';
import { startTestService } from '../service/test-support/start-test-service.js';

const DAY = 1.7e12;
const message = (id: string, text: string, channel: string) => ({
  speaker_kind: 'user',
  text,
  message_id: id,
  channel_id: channel,
  guild_id: 'g',
  ts: DAY,
});

test('a message saved while a channel forget waits for an in-flight write is not forgotten', async () => {
  const embedder = new ScriptedEmbedder(TEST_DIMENSIONS);
  const service = await startTestService({ embedder });
  try {
    await service.post('/save', {
      bot: 'mythos',
      source: 'discord',
      messages: [message('old', 'old talk about kites', 'c')],
    });
    embedder.delayMs = 10_000;
    const inFlight = service.writer.runOnce({ flush: true });
    await embedder.until(() => embedder.calls.length === 1); // the old chunk's write is in flight
    const forget = service.post('/forget', { bot: 'mythos', channel_id: 'c' });
    await embedder.until(() => embedder.aborts === 1); // the forget's journal step ran and it took the writer
    embedder.delayMs = 0;
    const saved = await service.post('/save', {
      bot: 'mythos',
      source: 'discord',
      messages: [message('new', `new talk after the forget ${'y'.repeat(130)}`, 'c')],
    });
    assert.equal(saved.json.accepted, 1);
    assert.equal((await forget).status, 200);
    await inFlight;
    await service.writer.runOnce({ flush: true });
    const client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
    const { points } = await client.scroll('mem_mythos', { limit: 10, with_payload: true });
    assert.deepEqual(
      points.map((p) => p.payload!.messageIds),
      ['new'],
      'the old chunk (written stale mid-forget) is gone, the new one is kept',
    );
  } finally {
    await service.close();
  }
});

test('a write failing during a forget does not postpone the delete or leave the forgotten text recallable', async () => {
  const embedder = new ScriptedEmbedder(TEST_DIMENSIONS);
  const service = await startTestService({ embedder });
  try {
    const window = [message('m1', 'my secret password is swordfish', 'c'), message('m2', 'I like tea', 'c')];
    await service.post('/save', { bot: 'mythos', messages: window });
    await service.writer.runOnce({ flush: true });
    await service.post('/save', { bot: 'mythos', messages: [{ ...window[1]!, text: 'I like green tea' }] });
    embedder.failing = true;
    embedder.delayMs = 200;
    const inFlight = service.writer.runOnce();
    await embedder.until(() => embedder.calls.length >= 2); // the edited chunk's write is in flight
    const forget = await service.post('/forget', { bot: 'mythos', message_ids: ['m1'] });
    await inFlight;
    // The delete happened; the rewrite of what is left could not be embedded and is retried in the background.
    assert.equal(forget.status, 200);
    assert.equal(forget.json.points_rewritten, 1);
    embedder.failing = false;
    embedder.delayMs = 0;
    const recalled = await service.post('/retrieve', {
      bot: 'mythos',
      query_text: 'secret password swordfish',
    });
    assert.equal(recalled.status, 200);
    assert.ok(recalled.json.hits.every((hit: { text: string }) => !hit.text.includes('swordfish')));
    // The background writer retries the rewrite after its backoff (about a second).
    let texts: string[] = [];
    for (let attempt = 0; attempt < 60 && texts.length === 0; attempt++) {
      await sleep(100);
      const again = await service.post('/retrieve', { bot: 'mythos', query_text: 'I like green tea' });
      texts = again.json.hits.map((hit: { text: string }) => hit.text);
    }
    assert.deepEqual(texts, ['[2023-11-14]\nUser: I like green tea']);
  } finally {
    await service.close();
  }
});
