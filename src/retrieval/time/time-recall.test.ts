import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { testBot } from '../../config/test-support/test-bot.js';
import { startTestService, type TestService } from '../../service/test-support/start-test-service.js';

/** Noon UTC on 5, 6 and 7 May 2026: three days, one chunk each (a chunk closes where the UTC day changes). */
const noon = (day: number) => Date.UTC(2026, 4, day, 12);
const message = (id: string, day: number, minute: number, text: string, kind: 'user' | 'self') => ({
  speaker_kind: kind,
  text,
  message_id: id,
  ts: noon(day) + minute * 60_000,
  ...(kind === 'user' ? { discord_user_id: 'u-helen', speaker_name: 'Helen' } : {}),
  channel_id: 'c1',
});
const CONVERSATION = [
  message('d5a', 5, 0, 'The tomatoes in my garden finally turned red.', 'user'),
  message('d5b', 5, 1, 'Red tomatoes at last! Will you make a sauce?', 'self'),
  message('d6a', 6, 0, 'I booked the train to Lisbon for the summer.', 'user'),
  message('d6b', 6, 1, 'Lisbon by train sounds wonderful.', 'self'),
  message('d7a', 7, 0, 'My cat Miso knocked a glass off the table.', 'user'),
  message('d7b', 7, 1, 'Miso the cat strikes again.', 'self'),
];
interface Hit {
  messageIds: string;
  timestamp: number;
}

describe('recall narrowed to the time a question names', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({
      bots: [testBot('mythos', { chunk: { minChars: 5000, maxChars: 8000 }, timezone: 'Europe/Lisbon' })],
    });
    assert.equal(
      (await service.post('/save', { bot: 'mythos', source: 'discord', messages: CONVERSATION })).status,
      200,
    );
    await service.writer.runOnce({ flush: true });
  });
  after(() => service.close());

  const retrieve = async (body: Record<string, unknown>) => {
    const response = await service.post('/retrieve', { bot: 'mythos', limit: 10, ...body });
    assert.equal(response.status, 200, JSON.stringify(response.json));
    return response.json as { hits: Hit[]; formatted: string; time_window?: Record<string, string> };
  };
  const idsOf = (hits: readonly Hit[]) => hits.flatMap((h) => h.messageIds.split(',')).sort();

  test('"what did we talk about yesterday?" returns that day\'s memories, though no word matches', async () => {
    const answer = await retrieve({
      query_text: 'what did we talk about yesterday?',
      now: '2026-05-07T18:00:00Z',
      explain: true,
    });
    assert.deepEqual(idsOf(answer.hits), ['d6a', 'd6b']);
    // The bot's zone (Lisbon, UTC+1 in May) is the default tz.
    assert.deepEqual(answer.time_window, {
      from: '2026-05-05T23:00:00.000Z',
      to: '2026-05-06T23:00:00.000Z',
      source: 'query',
      text: 'yesterday',
      use: 'narrow',
      tz: 'Europe/Lisbon',
    });
  });

  test('"yesterday" is the asker\'s: at 01:00 in Tokyo on 8 May it is 7 May there', async () => {
    const answer = await retrieve({
      query_text: 'yesterday',
      now: Date.UTC(2026, 4, 7, 16),
      tz: 'Asia/Tokyo',
    });
    assert.deepEqual(idsOf(answer.hits), ['d7a', 'd7b']);
  });

  test('chat naming no time answers as with time_hint "off" (no window, no dropped threshold)', async () => {
    for (const query_text of ['Sat on the couch thinking about Miso the cat', "I'll be there in a second"]) {
      const body = { query_text, now: '2026-05-09T12:00:00Z', explain: true };
      const answer = await retrieve(body);
      assert.equal(answer.time_window, undefined, query_text);
      assert.deepEqual(answer, await retrieve({ ...body, time_hint: 'off' }), query_text);
    }
  });

  test('a window with no memories returns no hits, not the nearest day', async () => {
    const answer = await retrieve({ query_text: 'what did we talk about on 1 May 2026?' });
    assert.deepEqual(answer, { hits: [], formatted: '' });
  });

  test('a query of time words and no asking word is not time-only: an empty window only weighs', async () => {
    const answer = await retrieve({ query_text: 'Sunday, 3 May 2026!', explain: true });
    assert.equal(answer.time_window?.use, 'weigh');
  });

  test('with a topic, an empty window only weighs: the day named may be when it happened', async () => {
    const answer = await retrieve({
      query_text: 'what did Helen say about her cat Miso on 1 May 2026?',
      explain: true,
    });
    assert.ok(idsOf(answer.hits).includes('d7a'), JSON.stringify(answer.hits));
    assert.equal(answer.time_window?.use, 'weigh');
  });

  test("time_from and time_to: a date is the whole day in tz; the window replaces the query's", async () => {
    const answer = await retrieve({
      query_text: 'what happened yesterday',
      now: '2026-05-07T18:00:00Z',
      time_from: '2026-05-05',
      time_to: '2026-05-05',
      tz: 'UTC',
      explain: true,
    });
    assert.deepEqual(idsOf(answer.hits), ['d5a', 'd5b']);
    assert.equal(answer.time_window?.source, 'request');
  });

  test('time_to "9999-12-31" west of UTC ends where an open end does, not in year 10000', async () => {
    const window = async (body: Record<string, unknown>) =>
      (await retrieve({ query_text: 'what did we talk about', tz: 'Etc/GMT+12', explain: true, ...body }))
        .time_window;
    const open = await window({ time_from: '2026-05-05' });
    const lastDay = await window({ time_from: '2026-05-05', time_to: '9999-12-31' });
    assert.equal(lastDay?.to, open?.to);
  });

  test("with a topic, a window keeps the bot's score threshold: a day's unrelated memories stay out", async () => {
    const bounds = { time_from: '2026-05-05', time_to: '2026-05-05', tz: 'UTC' };
    const topical = await retrieve({ query_text: 'Lisbon train booked', ...bounds });
    assert.deepEqual(idsOf(topical.hits), []);
    const timeOnly = await retrieve({ query_text: 'what did we talk about', ...bounds });
    assert.deepEqual(idsOf(timeOnly.hits), ['d5a', 'd5b']);
  });

  test('time_hint "off": "yesterday" is only a word', async () => {
    const answer = await retrieve({
      query_text: 'yesterday',
      now: '2026-05-07T18:00:00Z',
      time_hint: 'off',
      score_threshold: -1,
    });
    assert.equal(answer.hits.length, 3);
  });

  test('a time the calendar cannot hold ("100000 years ago") answers 200 with no window, not 500', async () => {
    for (const query_text of ['100000 years ago', 'what did we discuss 100000 years ago']) {
      const answer = await retrieve({ query_text, explain: true, score_threshold: -1 });
      assert.equal(answer.time_window, undefined);
      assert.equal(answer.hits.length, 3);
    }
  });

  test('bad values are a 400 naming the field and the fix', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ tz: 'Mars/Olympus' }, 'tz', /IANA/],
      [{ now: 'yesterday' }, 'now', /ISO 8601/],
      [{ now: '2026-05-07T18:00:00' }, 'now', /offset/],
      [{ time_from: '2026-13-40' }, 'time_from', /ISO 8601 date/],
      [{ time_from: '2026-02-30' }, 'time_from', /ISO 8601 date/],
      [{ time_to: -5 }, 'time_to', /Unix ms/],
      [{ time_hint: 'maybe' }, 'time_hint', /"auto" or "off"/],
      [{ time_from: '2026-05-07', time_to: '2026-05-06' }, 'time_to', /after time_from/],
      [{ now: '0000-01-01T00:00:00Z' }, 'now', /from 1970/],
      [{ time_to: '0000-01-01' }, 'time_to', /from 1970/],
      [{ time_from: '1969-12-31T23:00:00Z' }, 'time_from', /from 1970/],
      [{ time_to: 0 }, 'time_to', /\(open\) to 0 is empty/],
      [{ time_from: '9999-12-31T23:00:00-05:00' }, 'time_from', /to 9999/],
      [{ time_to: '9999-12-31T23:30:00-01:00' }, 'time_to', /to 9999/],
      [{ now: '9999-12-31T20:00:00-08:00' }, 'now', /to 9999/],
    ];
    for (const [body, field, message] of cases) {
      const response = await service.post('/retrieve', { bot: 'mythos', query_text: 'cats', ...body });
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(response.json.error.field, field, JSON.stringify(response.json));
      assert.match(response.json.error.message, message);
    }
  });

  test('a request without time answers byte for byte as before time was understood', async () => {
    const response = await service.post('/retrieve', {
      bot: 'mythos',
      query_text: 'What is the name of the cat, and when is the Lisbon train?',
      limit: 10,
      score_threshold: -1,
      explain: true,
    });
    // The SHA-256 of the answer recall gave before issue 25 (commit 6a2b8dc) to this seeded store, with each hit's
    // score its dense cosine since issue 37.8 (only the scores differ: 1 / 0.317 / 0 became 0.472 / 0.280 / -0.053).
    const digest = createHash('sha256').update(JSON.stringify(response.json)).digest('hex');
    assert.equal(digest, PINNED_ANSWER_SHA256, JSON.stringify(response.json));
  });
});

const PINNED_ANSWER_SHA256 = '99ebe407005eb9979680dd6e52f658f2b0b1d3feb43ec7f560d5e69669f6a7c8';
