import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';

const SESSION_ONE = Date.UTC(2026, 2, 3, 18);
const SESSION_TWO = Date.UTC(2026, 3, 21, 18);
const say = (id: string, name: string, text: string, at: number) => ({
  speaker_kind: 'user',
  text,
  message_id: id,
  ts: at,
  speaker_name: name,
  user_id: `u-${name.toLowerCase()}`,
});
const SESSION_THREE = Date.UTC(2026, 4, 9, 18);
const minute = 60_000;
const GARDEN = [
  'The tomatoes are finally red.',
  'I watered the beans twice today.',
  'Slugs ate half of the lettuce again.',
  'The roses by the fence are blooming.',
  'I bought a new rake at the market.',
  'Compost is ready for the spring beds.',
  'The pumpkins need more sun.',
  'We picked strawberries for jam.',
  'The apple tree lost a branch in the storm.',
  'Mint is taking over the herb bed.',
  'I planted garlic along the path.',
  'The hose has a leak near the tap.',
];
const mythos = (id: string, text: string, at: number) => ({
  speaker_kind: 'self',
  text,
  message_id: id,
  ts: at,
});
/**
 * Two people, each talking with the bot. The first session is Helen on her violin again and again
 * (near-copies of one fact that match most of the question's words); weeks later Marco says once, among
 * small talk, what he plays.
 */
const MESSAGES = [
  say('a1', 'Helen', 'I play the violin now, my first instrument.', SESSION_ONE),
  mythos('a2', 'Lovely, Helen.', SESSION_ONE + minute),
  say(
    'a3',
    'Helen',
    'I play the violin every evening, the instrument sounds lovely.',
    SESSION_ONE + 2 * minute,
  ),
  mythos('a4', 'Keep going, Helen.', SESSION_ONE + 3 * minute),
  say('a5', 'Helen', 'I play my violin, what an instrument to play.', SESSION_ONE + 4 * minute),
  mythos('a6', 'Wonderful, Helen.', SESSION_ONE + 5 * minute),
  say('a7', 'Helen', 'My violin teacher says I play the instrument well.', SESSION_ONE + 6 * minute),
  mythos('a8', 'Well done, Helen.', SESSION_ONE + 7 * minute),
  say('a9', 'Helen', 'The violin is the instrument I play best.', SESSION_ONE + 8 * minute),
  mythos('a10', 'Bravo, Helen.', SESSION_ONE + 9 * minute),
  say(
    'a11',
    'Helen',
    'Next I play the violin in a concert, my instrument is ready.',
    SESSION_ONE + 10 * minute,
  ),
  mythos('a12', 'Good luck, Helen.', SESSION_ONE + 11 * minute),
  say('b1', 'Marco', 'Busy week, the weather was grey and rainy.', SESSION_TWO),
  mythos('b2', 'Rain again? I hope you stayed dry, Marco.', SESSION_TWO + minute),
  say('b3', 'Marco', 'I joined a band: I play the drums on Fridays.', SESSION_TWO + 2 * minute),
  mythos('b4', 'A band, how fun.', SESSION_TWO + 3 * minute),
  say('b5', 'Marco', 'Anyway, I baked bread this morning.', SESSION_TWO + 4 * minute),
  // Other talk, so that the names are rare words in the collection as in a real one.
  ...GARDEN.map((line, i) => say(`c${i}`, 'Rosa', line, SESSION_THREE + i * minute)),
];

let service: TestService;
before(async () => {
  service = await startTestService({ bots: [testBot('mythos')] });
  const saved = await service.post('/save', { bot: 'mythos', source: 'discord', messages: MESSAGES });
  assert.equal(saved.status, 200, JSON.stringify(saved.json));
  await service.writer.runOnce({ flush: true });
});
after(() => service.close());

const recall = async (query: string) => {
  const response = await service.post('/retrieve', { bot: 'mythos', query_text: query, limit: 5 });
  assert.equal(response.status, 200, JSON.stringify(response.json));
  return (response.json.hits as { messageIds: string }[]).flatMap((hit) => hit.messageIds.split(','));
};

test('a question about what each of two people does finds both facts, from both sessions, within 5 hits', async () => {
  const held = await recall('What instruments do Helen and Marco each play?');
  assert.ok(
    held.some((id) => ['a1', 'a3', 'a5', 'a7'].includes(id)),
    `Helen's violin: ${held}`,
  );
  assert.ok(held.includes('b3'), `Marco's drums: ${held}`);
});
