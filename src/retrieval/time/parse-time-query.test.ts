import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseTimeQuery, TIME_SCAN_CHARS } from './parse-time-query.js';

/** The window as ISO instants, for readable pins. */
function windowOf(text: string, nowIso: string, timeZone: string) {
  const { window, contentText } = parseTimeQuery(text, { now: Date.parse(nowIso), timeZone });
  return window === undefined
    ? { contentText }
    : {
        from: new Date(window.from).toISOString(),
        to: new Date(window.to).toISOString(),
        kind: window.kind,
        precise: window.precise,
        text: window.text,
        contentText,
      };
}

// Thursday 14 May 2026, 01:00 in Tokyo (still Wednesday 13 May in UTC).
const TOKYO_1AM = '2026-05-13T16:00:00Z';

describe('parseTimeQuery', () => {
  test('"yesterday" asked at 01:00 in Tokyo is Tokyo\'s Wednesday, not UTC\'s Tuesday', () => {
    assert.deepEqual(windowOf('what did we talk about yesterday?', TOKYO_1AM, 'Asia/Tokyo'), {
      from: '2026-05-12T15:00:00.000Z',
      to: '2026-05-13T15:00:00.000Z',
      kind: 'day',
      precise: true,
      text: 'yesterday',
      contentText: 'what did we talk about ?',
    });
    assert.equal(windowOf('yesterday', TOKYO_1AM, 'UTC').from, '2026-05-12T00:00:00.000Z');
  });

  test('"today" is the asker\'s whole day', () => {
    const today = windowOf('what happened today', TOKYO_1AM, 'Asia/Tokyo');
    assert.equal(today.from, '2026-05-13T15:00:00.000Z');
    assert.equal(today.to, '2026-05-14T15:00:00.000Z');
  });

  test('a day across a DST change is 23 hours, midnight to midnight', () => {
    // New York springs forward on Sunday 8 March 2026.
    const day = windowOf('on 8 March 2026', '2026-03-10T12:00:00Z', 'America/New_York');
    assert.equal(day.from, '2026-03-08T05:00:00.000Z');
    assert.equal(day.to, '2026-03-09T04:00:00.000Z');
  });

  test('"last week" is the previous ISO week, Monday to Sunday', () => {
    const week = windowOf('remember what I told you last week?', TOKYO_1AM, 'Asia/Tokyo');
    assert.equal(week.from, '2026-05-03T15:00:00.000Z');
    assert.equal(week.to, '2026-05-10T15:00:00.000Z');
    assert.equal(week.kind, 'week');
  });

  test('"N days ago" is that day; "N weeks ago" that week', () => {
    assert.equal(windowOf('3 days ago', '2026-05-14T12:00:00Z', 'UTC').from, '2026-05-11T00:00:00.000Z');
    assert.equal(windowOf('three days ago', '2026-05-14T12:00:00Z', 'UTC').to, '2026-05-12T00:00:00.000Z');
    const twoWeeks = windowOf('two weeks ago', '2026-05-14T12:00:00Z', 'UTC');
    assert.deepEqual([twoWeeks.from, twoWeeks.to], ['2026-04-27T00:00:00.000Z', '2026-05-04T00:00:00.000Z']);
  });

  test('"on Tuesday" is the most recent Tuesday before today', () => {
    const tuesday = windowOf('what did you say on Tuesday', '2026-05-14T12:00:00Z', 'Europe/Paris');
    assert.deepEqual([tuesday.from, tuesday.to], ['2026-05-11T22:00:00.000Z', '2026-05-12T22:00:00.000Z']);
    assert.equal(windowOf('on Thursday', '2026-05-14T12:00:00Z', 'UTC').from, '2026-05-07T00:00:00.000Z');
  });

  test('"in May" is the most recent May that has begun, and leaves "in" out of the content words', () => {
    const may = windowOf('the trip we planned in May', '2026-03-02T12:00:00Z', 'UTC');
    assert.deepEqual(
      [may.from, may.to, may.kind],
      ['2025-05-01T00:00:00.000Z', '2025-06-01T00:00:00.000Z', 'month'],
    );
    assert.equal(may.contentText, 'the trip we planned');
    assert.equal(windowOf('in May 2023', '2026-03-02T12:00:00Z', 'UTC').from, '2023-05-01T00:00:00.000Z');
  });

  test('"on 8 May 2023" is that day; a weekday without a year picks the year it falls on', () => {
    assert.equal(windowOf('on 8 May 2023', TOKYO_1AM, 'UTC').from, '2023-05-08T00:00:00.000Z');
    const monday = windowOf('What did Caroline tell me on Monday, 8 May?', TOKYO_1AM, 'UTC');
    assert.deepEqual([monday.from, monday.text], ['2023-05-08T00:00:00.000Z', 'on Monday, 8 May']);
  });

  test('"last summer" is June to August in the north, December to February in the south', () => {
    const north = windowOf('last summer', TOKYO_1AM, 'Europe/London');
    assert.deepEqual([north.from, north.to], ['2025-05-31T23:00:00.000Z', '2025-08-31T23:00:00.000Z']);
    const south = windowOf('last summer', TOKYO_1AM, 'Australia/Sydney');
    assert.deepEqual([south.from, south.to], ['2025-11-30T13:00:00.000Z', '2026-02-28T13:00:00.000Z']);
  });

  test('"over the holidays" is the most recent 20 December to 6 January', () => {
    const holidays = windowOf('what did we do over the holidays', TOKYO_1AM, 'UTC');
    assert.deepEqual([holidays.from, holidays.to], ['2025-12-20T00:00:00.000Z', '2026-01-07T00:00:00.000Z']);
  });

  test('"a while ago" is vague: it only weighs', () => {
    const vague = windowOf('a while ago you said something', TOKYO_1AM, 'UTC');
    assert.equal(vague.precise, false);
    assert.equal(vague.kind, 'vague');
    assert.equal(vague.contentText, 'you said something');
  });

  test('a year, or a month or season without its year, only weighs: it may name when it happened', () => {
    const cases: [string, boolean][] = [
      ['camping in June', false],
      ['in June 2023', true],
      ['the trip last year', false],
      ['4 years ago', false],
      ['during the summer', false],
      ['last summer', true],
      ['last month', true],
      ['yesterday', true],
    ];
    for (const [text, precise] of cases)
      assert.equal(windowOf(text, TOKYO_1AM, 'UTC').precise, precise, text);
  });

  test('no window for words that only look like dates, a time of day, "now" or the future', () => {
    for (const text of [
      'we will march on',
      'I sat down with her',
      'at 5pm',
      'what do you know now',
      'next Tuesday',
      'I love cats',
    ]) {
      assert.deepEqual(windowOf(text, TOKYO_1AM, 'UTC'), { contentText: text }, text);
    }
  });

  test('chat that names no time gets no window: words, names, sub-day units, yearless slash numbers', () => {
    const now = '2026-12-04T12:00:00Z';
    for (const text of [
      'Sat on the couch thinking about Miso the cat',
      "I'll be there in a second",
      'Sat down with a cup of tea',
      'Sun, sea and sand',
      'Mon ami',
      'Wed to the idea',
      'in a minute',
      'five minutes ago',
      'an hour ago',
      'open 24/7',
      'add 3/4 of a cup',
      'Did June like the cake?',
      'What did April say about it?',
      'August Rush',
      'hurt in the fall',
    ]) {
      assert.deepEqual(windowOf(text, now, 'UTC'), { contentText: text }, text);
    }
  });

  test('a weekday in a name, or a yearless slash date, only weighs', () => {
    const now = '2026-12-04T12:00:00Z';
    for (const text of [
      'my Sunday best',
      'Black Friday deals',
      'Friday Night Lights',
      'Monday Night Football',
      'Thursday Next',
      'what happened on 9/11',
    ]) {
      const found = windowOf(text, now, 'UTC');
      assert.equal(found.precise, false, text);
    }
    assert.equal(windowOf('what did we talk about on Friday', now, 'UTC').precise, true);
    assert.equal(windowOf('what did we say last Sunday', now, 'UTC').from, '2026-11-29T00:00:00.000Z');
  });

  test('a day with a part of day is that day, not today', () => {
    const monday = '2026-11-30T15:00:00Z';
    const cases: [string, string][] = [
      ['yesterday evening', '2026-11-29'],
      ['yesterday morning', '2026-11-29'],
      ['on Saturday morning', '2026-11-28'],
      ['Friday night', '2026-11-27'],
      ['on Sunday afternoon', '2026-11-29'],
      ['this morning', '2026-11-30'],
    ];
    for (const [text, day] of cases)
      assert.equal(windowOf(text, monday, 'UTC').from, `${day}T00:00:00.000Z`, text);
  });

  test('a weekend is its Saturday and Sunday, the latest begun; "this weekend" on a weekday is ahead', () => {
    const monday = '2026-11-30T15:00:00Z';
    for (const text of ['over the weekend', 'last weekend']) {
      const weekend = windowOf(text, monday, 'UTC');
      assert.deepEqual(
        [weekend.from, weekend.to],
        ['2026-11-28T00:00:00.000Z', '2026-11-30T00:00:00.000Z'],
        text,
      );
    }
    const sunday = '2026-11-29T15:00:00Z';
    assert.equal(windowOf('last weekend', sunday, 'UTC').from, '2026-11-21T00:00:00.000Z');
    assert.equal(windowOf('over the weekend', sunday, 'UTC').from, '2026-11-28T00:00:00.000Z');
    assert.deepEqual(windowOf('this weekend', monday, 'UTC'), { contentText: 'this weekend' });
  });

  test('a plan only weighs; the same words looking back narrow', () => {
    const saturday = '2026-11-28T15:00:00Z';
    for (const text of [
      'See you on Friday!',
      'I have an exam on Monday',
      'Are you free this weekend?',
      'What should I cook tonight?',
      'this summer',
    ]) {
      const found = windowOf(text, saturday, 'UTC');
      assert.notEqual(found.precise, true, text);
    }
    assert.equal(windowOf('what did we talk about on Friday', saturday, 'UTC').precise, true);
    assert.equal(windowOf('what did I cook tonight?', saturday, 'UTC').precise, true);
  });

  test('a range ending on a month ends on its last day', () => {
    const range = windowOf('from March to May 2026', '2026-11-28T15:00:00Z', 'UTC');
    assert.deepEqual([range.from, range.to], ['2026-03-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z']);
    const days = windowOf('from 1 to 8 May 2026', '2026-11-28T15:00:00Z', 'UTC');
    assert.deepEqual([days.from, days.to], ['2026-05-01T00:00:00.000Z', '2026-05-09T00:00:00.000Z']);
  });

  test('"last week" asked on a Monday or a Sunday is still the previous Monday to Sunday', () => {
    for (const now of ['2026-11-30T15:00:00Z', '2026-12-06T15:00:00Z']) {
      const week = windowOf('what did we talk about last week', now, 'UTC');
      assert.deepEqual([week.from, week.to], ['2026-11-23T00:00:00.000Z', '2026-11-30T00:00:00.000Z'], now);
    }
  });

  test('a time the calendar cannot hold ("100000 years ago") is no window, in any zone, never a throw', () => {
    const phrases = [
      '100000 years ago',
      'what did we discuss 100000 years ago',
      '2026 years ago',
      '2500 years ago',
    ];
    const beyond: Record<string, number[]> = {
      days: [1e6, 1e9],
      weeks: [300_000, 1e9],
      months: [99_999, 1e9],
      years: [99_999, 300_000, 1e9],
    };
    for (const [unit, counts] of Object.entries(beyond)) {
      for (const n of counts) phrases.push(`${n} ${unit} ago`);
    }
    for (const timeZone of ['UTC', 'Europe/Paris', 'Asia/Tokyo', 'America/St_Johns', 'Pacific/Kiritimati']) {
      for (const text of phrases) {
        assert.deepEqual(windowOf(text, '2026-05-14T12:00:00Z', timeZone), { contentText: text }, text);
      }
    }
  });

  test('a long query is read for its time only in its opening: a date past it names no window', () => {
    // A 20 kB pasted text or chat: reading all of it for dates held the service's thread ~15 ms per query.
    const filler = 'the harbour lantern and the piano by the river '.repeat(430);
    assert.ok(filler.length > TIME_SCAN_CHARS * 10);
    const late = `${filler}what did we talk about yesterday?`;
    assert.deepEqual(windowOf(late, TOKYO_1AM, 'Asia/Tokyo'), { contentText: late });
    // Within the opening the window and the words taken out are as for a short question, however long the rest.
    const early = windowOf(`what did we talk about yesterday? ${filler}`, TOKYO_1AM, 'Asia/Tokyo');
    assert.equal(early.from, '2026-05-12T15:00:00.000Z');
    assert.equal(early.contentText, `what did we talk about ? ${filler}`.trim());
    // A date starting at the opening's last characters is read whole: "on 8 May" then "2023" is 8 May 2023.
    for (const pad of [1_990, 1_993, 1_996]) {
      const edge = `${'x'.repeat(pad)} on 8 May 2023 we met ${filler}`;
      assert.equal(windowOf(edge, TOKYO_1AM, 'UTC').from, '2023-05-08T00:00:00.000Z', `pad ${pad}`);
    }
  });

  test('a year of the calendar still places its window ("1000 years ago", "summer 1999")', () => {
    assert.deepEqual(
      windowOf('1000 years ago', '2026-05-14T12:00:00Z', 'Europe/Paris').from,
      '1025-12-31T23:51:00.000Z',
    );
    assert.equal(windowOf('summer 1999', '2026-05-14T12:00:00Z', 'UTC').from, '1999-06-01T00:00:00.000Z');
  });
});
