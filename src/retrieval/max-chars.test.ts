import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { configSchema } from '../config/config-schema.js';
import { testBot } from '../config/test-support/test-bot.js';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';

const DAY = Date.UTC(2026, 4, 7, 9);
/** Twelve messages about one garden, so every budget has more hits to choose from than it can hold. */
const TOPICS = [
  'The tomatoes in the garden are finally turning red after the long rainy spring.',
  'I moved the basil next to the tomatoes because the garden guide said they grow well together.',
  'A rabbit got into the garden last night and ate half of the lettuce bed.',
  'We built a small fence around the garden so the rabbit cannot reach the vegetables.',
  'The garden hose sprang a leak, so I watered the tomatoes with a can this morning.',
  'My neighbour gave me cucumber seedlings for the garden in exchange for some tomatoes.',
];
const MESSAGES = TOPICS.flatMap((text, i) => [
  { speaker_kind: 'user', text, message_id: `u${i}`, ts: DAY + i * 120_000, speaker_name: 'Helen' },
  {
    speaker_kind: 'self',
    text: `That sounds like a busy week in the garden, Helen (${i + 1}).`,
    message_id: `s${i}`,
    ts: DAY + i * 120_000 + 60_000,
  },
]);
const QUERY = 'What happened with the tomatoes and the rabbit in the garden?';
type Answer = { hits: { text: string; messageIds: string }[]; formatted: string };

describe('max_chars: the recalled block within a number of characters', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({
      bots: [
        testBot('mythos', { retrieve: { limit: 10, scoreThreshold: 0, scope: 'global' } }),
        testBot('budgeted', {
          collection: 'mem_mythos',
          retrieve: { limit: 10, scoreThreshold: 0, scope: 'global', maxChars: 400 },
        }),
      ],
    });
    const saved = await service.post('/save', { bot: 'mythos', source: 'discord', messages: MESSAGES });
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    await service.writer.runOnce({ flush: true });
  });
  after(() => service.close());

  const retrieve = async (bot: string, body: Record<string, unknown> = {}) => {
    const response = await service.post('/retrieve', { bot, query_text: QUERY, ...body });
    assert.equal(response.status, 200, JSON.stringify(response.json));
    return response.json as Answer;
  };

  test('the block never passes max_chars, holds whole messages only, and keeps the best hits first', async () => {
    const all = await retrieve('mythos');
    assert.ok(all.formatted.length > 1000, 'the unbudgeted block is longer than the budgets below');
    for (const maxChars of [1, 150, 300, 450, 700, 1000]) {
      const { hits, formatted } = await retrieve('mythos', { max_chars: maxChars });
      assert.ok(formatted.length <= maxChars, `${formatted.length} > ${maxChars}`);
      // The same hits as without a budget, cut where the next would not fit: never a shorter, worse one.
      assert.deepEqual(hits, all.hits.slice(0, hits.length));
      const next = all.hits[hits.length];
      if (next !== undefined) assert.ok(formatted.length + next.text.length > maxChars - 40);
      for (const hit of hits) {
        for (const id of hit.messageIds.split(',')) {
          const message = MESSAGES.find((m) => m.message_id === id)!;
          assert.ok(formatted.includes(message.text), `message ${id} whole in the block`);
        }
      }
    }
    const none = await retrieve('mythos', { max_chars: 1 });
    assert.deepEqual(none, { hits: [], formatted: '' });
  });

  test('with limit, whichever comes first', async () => {
    const few = await retrieve('mythos', { max_chars: 100_000, limit: 2 });
    assert.equal(few.hits.length, 2);
    const short = await retrieve('mythos', { max_chars: 450, limit: 10 });
    assert.ok(short.hits.length < 10 && short.formatted.length <= 450);
  });

  test("the bot's retrieve.maxChars applies when the request sends none; the request's wins", async () => {
    const budgeted = await retrieve('budgeted');
    assert.ok(budgeted.formatted.length <= 400 && budgeted.hits.length > 0);
    assert.deepEqual(budgeted, await retrieve('mythos', { max_chars: 400 }));
    const wider = await retrieve('budgeted', { max_chars: 100_000 });
    assert.deepEqual(wider, await retrieve('mythos'));
  });

  test('0, a negative, a fraction, text or more than 100,000 is a 400 naming max_chars', async () => {
    for (const max_chars of [0, -5, 2.5, '2000', 100_001]) {
      const response = await service.post('/retrieve', { bot: 'mythos', query_text: QUERY, max_chars });
      assert.equal(response.status, 400, JSON.stringify(max_chars));
      assert.equal(response.json.error.field, 'max_chars', JSON.stringify(response.json));
      assert.match(response.json.error.message, /1 to 100000/);
    }
  });
});

test('retrieve.maxChars is unset by default, and a bad one names the key', () => {
  const parsed = configSchema.parse({ bots: { mythos: { selfSpeaker: 'Mythos' } } });
  assert.equal(parsed.bots.mythos!.retrieve.maxChars, undefined);
  const bad = configSchema.safeParse({
    bots: { mythos: { selfSpeaker: 'Mythos', retrieve: { maxChars: 0 } } },
  });
  assert.ok(!bad.success);
  assert.deepEqual(bad.error.issues[0]!.path, ['bots', 'mythos', 'retrieve', 'maxChars']);
});
