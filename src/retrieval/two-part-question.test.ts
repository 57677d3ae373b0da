import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';

const SESSION_ONE = Date.UTC(2026, 2, 3, 18);
const SESSION_TWO = Date.UTC(2026, 3, 21, 18);
const say = (id: string, text: string, at: number, self = false) =>
  self
    ? { speaker_kind: 'self', text, message_id: id, ts: at }
    : { speaker_kind: 'user', text, message_id: id, ts: at, speaker_name: 'Helen' };
/**
 * Two sessions weeks apart: the first talks about the greyhound again and again (near-copies of one fact),
 * the second holds the other fact once, among small talk.
 */
const MESSAGES = [
  say('a1', 'We adopted a greyhound last weekend, her name is Pixel.', SESSION_ONE),
  say('a2', 'A greyhound! Pixel is a lovely name.', SESSION_ONE + 60_000, true),
  say('a3', 'Pixel the greyhound sleeps on the sofa all day.', SESSION_ONE + 120_000),
  say('a4', 'Greyhounds love sofas, Pixel sounds happy.', SESSION_ONE + 180_000, true),
  say('a5', 'The greyhound Pixel already knows her name.', SESSION_ONE + 240_000),
  say('a6', 'Clever greyhound. Give Pixel a treat from me.', SESSION_ONE + 300_000, true),
  say('b1', 'Busy week, the weather was grey and rainy.', SESSION_TWO),
  say('b2', 'Rain again? I hope you stayed dry.', SESSION_TWO + 60_000, true),
  say('b3', 'Big news: we are moving to Lisbon in June for my new job.', SESSION_TWO + 120_000),
  say('b4', 'Lisbon in June, how exciting!', SESSION_TWO + 180_000, true),
  say('b5', 'Anyway, I baked bread this morning.', SESSION_TWO + 240_000),
];

let service: TestService;
before(async () => {
  service = await startTestService({ bots: [testBot('mythos')] });
  const saved = await service.post('/save', { bot: 'mythos', source: 'discord', messages: MESSAGES });
  assert.equal(saved.status, 200, JSON.stringify(saved.json));
  await service.writer.runOnce({ flush: true });
});
after(() => service.close());

test('a two-part question finds both facts, from both sessions, within 5 hits despite near-copies of one', async () => {
  const response = await service.post('/retrieve', {
    bot: 'mythos',
    query_text: 'What is the name of the greyhound Helen adopted, and where is she moving?',
    limit: 5,
  });
  assert.equal(response.status, 200, JSON.stringify(response.json));
  const held = (response.json.hits as { messageIds: string }[]).flatMap((hit) => hit.messageIds.split(','));
  assert.ok(held.includes('a1'), `the greyhound's name: ${held}`);
  assert.ok(held.includes('b3'), `the move: ${held}`);
});
