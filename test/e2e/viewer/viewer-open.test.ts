/**
 * @module The memory viewer in Debian's Chromium on a service without keys (loopback): browse and page the
 * timeline, filter through the URL, ask, correct, forget one and in bulk (the confirmation's counts are what
 * leaves the store), the loopback guard, an empty bot, accessibility and screenshots.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { type TestService, startTestService } from '../../../src/service/test-support/start-test-service.js';
import { testBot } from '../../../src/config/test-support/test-bot.js';
import type { BotStatsResponse } from '../../../src/wire/stats-response.js';
import type { TimelinePageResponse } from '../../../src/wire/viewer.js';
import {
  SCREENSHOT_DIR,
  buildViewer,
  countPoints,
  journalCounts,
  launchBrowser,
  seedMemories,
  seriousViolations,
  skipBrowser,
  storeClient,
} from './viewer-harness.js';

const COLLECTION = 'mem_mythos';

/** Every point id of the timeline through the API, page by page, newest first. */
async function timelineIds(service: TestService, query = ''): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams(query);
    params.set('limit', '13');
    if (cursor) params.set('cursor', cursor);
    const page = (await (await fetch(`${service.url}/bots/mythos/points?${params}`)).json()) as TimelinePageResponse;
    ids.push(...page.points.map((p) => String(p.id)));
    cursor = page.next_cursor;
  } while (cursor);
  return ids;
}

const cardIds = (page: Page) =>
  page.$$eval('article.memory', (cards) => cards.map((card) => card.getAttribute('data-point-id') ?? ''));

describe('the memory viewer without keys', { skip: skipBrowser }, () => {
  let service: TestService;
  let browser: Browser;
  let page: Page;
  let total: number;

  before(async () => {
    buildViewer();
    service = await startTestService({ bots: [testBot('mythos'), testBot('empty')] });
    total = await seedMemories(service, 'mythos');
    browser = await launchBrowser(`MAP viewer.example 127.0.0.1`);
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  });
  after(async () => {
    await browser?.close();
    await service?.close();
  });

  test('the timeline shows every memory newest first, grouped by day, paged as it scrolls', async () => {
    await page.goto(`${service.url}/ui`);
    await page.waitForSelector('article.memory');
    assert.match(await page.textContent('.summary [role=status]') ?? '', new RegExp(`^${total} memories`));
    const first = await cardIds(page);
    assert.equal(first.length, 50, 'one page of 50');
    const headings = await page.$$eval('.day h2', (hs) => hs.map((h) => h.textContent));
    assert.equal(headings[0], 'Wednesday, 2 December 2026');
    assert.equal(new Set(headings).size, headings.length, 'one heading per day');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/timeline.png` });
    // Scrolling to the end loads the next page.
    while ((await cardIds(page)).length < total) {
      await page.locator('.more').scrollIntoViewIfNeeded();
      await page.waitForTimeout(100);
    }
    assert.deepEqual(await cardIds(page), await timelineIds(service));
    const stamps = await page.$$eval('article.memory time', (ts) => ts.map((t) => Date.parse(t.getAttribute('datetime')!)));
    assert.deepEqual(stamps, [...stamps].sort((a, b) => b - a), 'newest first');
    assert.equal(await page.textContent('.more'), 'That is everything.');
  });

  test('filters live in the URL: a bookmarked view opens filtered, and applying the form rewrites the URL', async () => {
    await page.goto(`${service.url}/ui?source=discord&dm=exclude`);
    await page.waitForSelector('article.memory');
    assert.equal(await page.inputValue('input[name=source]'), 'discord');
    assert.equal(await page.inputValue('select[name=dm]'), 'exclude');
    // The source filter offers the bot's sources, each with the memories it wrote, as the stats count them.
    const stats = (await (await fetch(`${service.url}/bots/mythos/stats`)).json()) as BotStatsResponse;
    const offered = await page.$$eval('#source-choices option', (os: HTMLOptionElement[]) => os.map((o) => [o.value, o.textContent]));
    const bySource = Object.entries(stats.points.bySource ?? {}).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    assert.deepEqual(offered, [
      ...bySource.map(([source, n]) => [source, `${source} (${n} ${n === 1 ? 'memory' : 'memories'})`]),
    ]);
    assert.deepEqual(bySource.map(([source]) => source).sort(), ['discord', 'hermes', 'import']);
    assert.deepEqual(await cardIds(page), await timelineIds(service, 'source=discord&dm=exclude'));
    const badges = await page.$$eval('article.memory .badge', (bs) => bs.map((b) => b.textContent));
    assert.ok(badges.includes('discord') && !badges.includes('DM') && !badges.includes('hermes'));

    await page.keyboard.press('/');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'search', '/ jumps to the search field');
    await page.keyboard.type('Schubert');
    await page.keyboard.press('Enter');
    await page.waitForURL(/text=Schubert/);
    await page.waitForFunction(() => document.querySelectorAll('article.memory').length === 1);
    assert.match(await page.textContent('article.memory') ?? '', /Schubert/);
    assert.deepEqual(await cardIds(page), await timelineIds(service, 'source=discord&dm=exclude&text=Schubert'));
    await page.click('text=Clear');
    await page.waitForURL((url) => url.search === '');
  });

  test('filtering by channel keeps the channel in the URL, and the bookmarked URL opens with it', async () => {
    await page.goto(`${service.url}/ui`);
    await page.waitForSelector('article.memory');
    await page.click('summary:has-text("More filters")');
    await page.fill('input[name=channel_id]', 'c1');
    await page.click('button:has-text("Apply")');
    await page.waitForURL(/channel_id=c1/);
    const expected = await timelineIds(service, 'channel_id=c1');
    assert.ok(expected.length > 0);
    await page.waitForFunction((n) => document.querySelectorAll('article.memory').length === n, expected.length);
    assert.deepEqual(await cardIds(page), expected);
    const places = await page.$$eval('article.memory', (cards) =>
      cards.map((c) => [...c.querySelectorAll('.badge.place')].map((b) => b.textContent).join(' ')),
    );
    assert.deepEqual(new Set(places), new Set(['guild g1 channel c1']));
    const bookmarked = page.url();
    await page.goto(`${service.url}/ui`);
    await page.waitForSelector('article.memory');
    await page.goto(bookmarked);
    await page.waitForSelector('article.memory');
    assert.equal(await page.inputValue('input[name=channel_id]'), 'c1');
    assert.deepEqual(await cardIds(page), expected);
    assert.match((await page.textContent('.summary [role=status]')) ?? '', new RegExp(`^${expected.length} memor(y|ies) match`));
  });

  test('arrow keys move through the timeline; Enter opens a memory and Escape closes it', async () => {
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-point-id'));
    await page.goto(`${service.url}/ui`);
    await page.waitForSelector('article.memory');
    await page.focus('article.memory');
    await page.keyboard.press('ArrowDown');
    const ids = await cardIds(page);
    assert.equal(await focused(), ids[1]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    assert.equal(await focused(), ids[1], 'ArrowUp goes back');
    await page.keyboard.press('Enter');
    await page.waitForSelector('dialog[open]');
    await page.keyboard.press('Escape');
    await page.waitForSelector('dialog', { state: 'detached' });
    assert.equal(await focused(), ids[1], 'focus comes back');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    assert.equal(await focused(), ids[0], 'the first memory stays focused at the top');
  });

  test('ArrowDown from the last memory loaded brings the next page, and the next ArrowDown goes on into it', async () => {
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-point-id'));
    await page.goto(`${service.url}/ui`);
    await page.waitForSelector('article.memory');
    const first = await cardIds(page);
    assert.equal(first.length, 50);
    await page.focus(`article[data-point-id="${first.at(-1)}"]`);
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => document.querySelectorAll('article.memory').length > 50);
    await page.keyboard.press('ArrowDown');
    const all = await timelineIds(service);
    assert.deepEqual((await cardIds(page)).slice(0, 51), all.slice(0, 51));
    assert.equal(await focused(), all[50], 'the first memory of the next page');
  });

  test("Ask shows exactly /retrieve's hits and block, with each hit's explanation and the block's size", async () => {
    await page.goto(`${service.url}/ui?view=ask`);
    await page.fill('input[name=query]', 'Where does Anna live?');
    await page.click('button[type=submit]');
    await page.waitForSelector('.answer');
    const direct = await service.post('/retrieve', { bot: 'mythos', query_text: 'Where does Anna live?', explain: true });
    assert.ok(direct.json.hits.length > 0);
    assert.equal(await page.locator('.hits > li').count(), direct.json.hits.length);
    assert.equal(await page.textContent('pre.block'), direct.json.formatted);
    assert.equal(
      await page.textContent('.block-size'),
      `${direct.json.formatted.length.toLocaleString('en-GB')} characters`,
    );
    const firstHit = (await page.textContent('.hits > li')) ?? '';
    assert.ok(firstHit.includes(`${Math.round(direct.json.hits[0].score * 100)}%`));
    assert.match(firstHit, /Why it ranked: (hybrid|chunk-only) recall/);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/ask.png`, fullPage: true });
    // Narrowed to one channel's scope: exactly what /retrieve answers with the same fields (the DM is left out).
    const query = 'the surprise trip to Porto';
    const unscoped = await service.post('/retrieve', { bot: 'mythos', query_text: query, explain: true });
    assert.ok(unscoped.json.hits.some((hit: { channelId?: string }) => hit.channelId === 'dm7'));
    await page.fill('input[name=query]', query);
    await page.fill('input[name=guild_id]', 'g1');
    await page.fill('input[name=channel_id]', 'c1');
    await page.selectOption('select[name=scope]', 'channel');
    await page.click('button[type=submit]');
    const scoped = await service.post('/retrieve', {
      bot: 'mythos',
      query_text: query,
      explain: true,
      guild_id: 'g1',
      channel_id: 'c1',
      scope: 'channel',
    });
    assert.ok(scoped.json.hits.every((hit: { channelId?: string }) => [undefined, 'c1'].includes(hit.channelId)));
    await page.waitForFunction((block) => document.querySelector('pre.block')?.textContent === block, scoped.json.formatted);
    assert.equal(await page.locator('.hits > li').count(), scoped.json.hits.length);
  });

  test('Ask says which time window it understood, read in the browser zone', async () => {
    await page.goto(`${service.url}/ui?view=ask`);
    await page.fill('input[name=query]', 'what did Anna say yesterday?');
    await page.click('button[type=submit]');
    await page.waitForSelector('.answer');
    assert.match((await page.textContent('.time-window')) ?? '', /Time understood: “yesterday” \(from the query\)/);
    await page.fill('input[name=query]', 'Where does Anna live?');
    await page.click('button[type=submit]');
    await page.waitForFunction(() => document.querySelector('.time-window') === null);
  });

  test("correcting a memory-pool message rebuilds and re-embeds its memory under the same id", async () => {
    const hermes = await timelineIds(service, 'source=hermes');
    assert.equal(hermes.length, 1);
    const id = hermes[0]!;
    await page.goto(`${service.url}/ui?source=hermes`);
    await page.focus(`article[data-point-id="${id}"]`);
    await page.keyboard.press('Enter');
    const box = page.locator('dialog textarea').first();
    // Each message's text area spans the dialog (it was ~170 px wide, squeezed to its label's width).
    await box.waitFor();
    const [boxWidth, dialogWidth] = await page.evaluate(() => [
      document.querySelector('dialog textarea')!.getBoundingClientRect().width,
      document.querySelector('dialog')!.clientWidth,
    ]);
    assert.ok(boxWidth >= dialogWidth * 0.85, `the text area is ${boxWidth} px wide in a ${dialogWidth} px dialog`);
    await box.fill('Remind me that the piano tuner comes on Friday at ten in the morning.');
    await page.click('dialog button.primary');
    await page.waitForSelector('dialog [role=status]');
    assert.match(await page.textContent('dialog [role=status]') ?? '', /Saved 1 edited message/);
    await service.writer.runOnce({ flush: true });
    const [point] = await storeClient(service).retrieve(COLLECTION, { ids: [id], with_payload: true });
    assert.match(String(point?.payload?.text), /Friday at ten/);
    assert.doesNotMatch(String(point?.payload?.text), /Thursday at nine in the morning/);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.body.textContent?.includes('Friday at ten'));
  });

  test("correcting SillyTavern's point re-embeds its text in place (same id, new vector)", async () => {
    const client = storeClient(service);
    const [before] = await client.retrieve(COLLECTION, { ids: [900_001], with_vector: true });
    await page.goto(`${service.url}/ui?kind=sillytavern`);
    await page.focus('article[data-point-id="900001"]');
    await page.keyboard.press('Enter');
    const text = '[2026-12-02]\nHelen: I started learning the viola myself.\nMythos: A viola in the family of pianists, brave!';
    await page.locator('dialog textarea').fill(text);
    await page.click('dialog button.primary');
    await page.waitForSelector('dialog [role=status]');
    const [after] = await client.retrieve(COLLECTION, { ids: [900_001], with_vector: true, with_payload: true });
    assert.equal(after?.payload?.text, text);
    assert.equal(after?.payload?.source, undefined, 'still a SillyTavern point');
    assert.notDeepEqual(after?.vector, before?.vector, 're-embedded');
    await page.keyboard.press('Escape');
  });

  test('forgetting one memory: Delete asks with the exact counts, and exactly that leaves the store', async () => {
    const [id] = await timelineIds(service, 'dm=only');
    const before = await countPoints(service, COLLECTION);
    const journalBefore = await journalCounts(service, 'mythos');
    const shown = (await timelineIds(service, 'dm=only')).length;
    await page.goto(`${service.url}/ui?dm=only`);
    await page.focus(`article[data-point-id="${id}"]`);
    await page.keyboard.press('Delete');
    const counts = page.locator('dialog .forget-counts');
    await counts.waitFor();
    assert.equal(await counts.getAttribute('data-points'), '1');
    assert.equal(await counts.getAttribute('data-messages'), '2');
    assert.equal(await counts.textContent(), '1 memory and 2 messages will be forgotten.');
    const stated = Number(await counts.getAttribute('data-messages'));
    await page.click('dialog button.danger');
    await page.waitForSelector('dialog .forget-result');
    assert.equal(await page.textContent('dialog .forget-result'), '2 messages forgotten; 1 memory deleted, 0 memories rewritten.');
    // The page follows at once, while the result is still shown: the card and the count go.
    assert.equal(await page.locator(`article[data-point-id="${id}"]`).count(), 0, 'the card left the page');
    const left = shown - 1;
    assert.equal(
      await page.textContent('.summary [role=status]'),
      `${left} ${left === 1 ? 'memory' : 'memories'} match`,
    );
    assert.ok(await page.locator('dialog .forget-result').isVisible(), 'the result is still shown');
    assert.equal(await countPoints(service, COLLECTION), before - 1);
    assert.deepEqual(await storeClient(service).retrieve(COLLECTION, { ids: [id!] }), []);
    // The messages the confirmation counted left the journal, each with its tombstone.
    assert.deepEqual(await journalCounts(service, 'mythos'), {
      messages: journalBefore.messages - stated,
      forgotten: journalBefore.forgotten + stated,
    });
  });

  test('forgetting one message rewrites its memory without it', async () => {
    const ids = await timelineIds(service, 'source=discord');
    const [id] = ids;
    const client = storeClient(service);
    const [before] = await client.retrieve(COLLECTION, { ids: [id!], with_payload: true });
    assert.ok(Number(before?.payload?.messageCount) >= 2);
    const journalBefore = await journalCounts(service, 'mythos');
    await page.goto(`${service.url}/ui?source=discord`);
    await page.focus(`article[data-point-id="${id}"]`);
    await page.keyboard.press('Enter');
    await page.locator('dialog button:has-text("Forget this message")').first().click();
    await page.waitForSelector('dialog .forget-counts');
    assert.match(await page.textContent('dialog .forget-counts') ?? '', /^1 message will be forgotten; its memory stays/);
    const stated = Number(await page.getAttribute('dialog .forget-counts', 'data-messages'));
    await page.click('dialog button.danger');
    await page.waitForSelector('dialog .forget-result');
    const [after] = await client.retrieve(COLLECTION, { ids: [id!], with_payload: true });
    assert.equal(after?.payload?.messageCount, Number(before?.payload?.messageCount) - 1);
    assert.deepEqual(await journalCounts(service, 'mythos'), {
      messages: journalBefore.messages - stated,
      forgotten: journalBefore.forgotten + stated,
    });
  });

  test('forgetting everything matching a filter: the confirmation counts exactly what goes', async () => {
    const june = {
      must: [
        { key: 'source', match: { value: 'import' } },
        { key: 'timestamp', range: { gte: Date.parse('2026-06-01T00:00:00Z'), lt: Date.parse('2026-07-01T00:00:00Z') } },
      ],
    };
    const matching = await countPoints(service, COLLECTION, june);
    assert.equal(matching, 30);
    const before = await countPoints(service, COLLECTION);
    const journalBefore = await journalCounts(service, 'mythos');
    await page.goto(`${service.url}/ui?source=import&from=2026-06-01&to=2026-06-30`);
    await page.click('button:has-text("Forget all matching")');
    const counts = page.locator('dialog .forget-counts');
    await counts.waitFor();
    assert.equal(await counts.textContent(), '30 memories and 30 messages will be forgotten.');
    const stated = Number(await counts.getAttribute('data-messages'));
    await page.screenshot({ path: `${SCREENSHOT_DIR}/confirm-forget.png` });
    assert.deepEqual(await seriousViolations(page), [], 'the confirmation passes axe');
    await page.click('dialog button.danger');
    await page.waitForSelector('dialog .forget-result');
    assert.equal(await page.textContent('dialog .forget-result'), '30 messages forgotten; 30 memories deleted, 0 memories rewritten.');
    // The list is read again at once, before the result is closed.
    await page.waitForSelector('.empty');
    assert.equal(await page.locator('article.memory').count(), 0);
    assert.equal(await countPoints(service, COLLECTION, june), 0);
    assert.equal(await countPoints(service, COLLECTION), before - 30);
    // The messages the confirmation counted left the journal, each with its tombstone.
    assert.deepEqual(await journalCounts(service, 'mythos'), {
      messages: journalBefore.messages - stated,
      forgotten: journalBefore.forgotten + stated,
    });
    await page.click('dialog button:has-text("Close")');
    assert.equal(await page.locator('dialog').count(), 0);
  });

  test('memories without a timestamp come last under "No date", filter by the URL and forget like the rest', async () => {
    const client = storeClient(service);
    const discord = await timelineIds(service, 'source=discord');
    const sourced = discord.at(-1)!;
    assert.match(sourced, /^[0-9a-f-]{36}$/, "memory-pool's point ids are UUIDs");
    // Another writer left these without a timestamp: one of memory-pool's, one of SillyTavern's.
    await client.deletePayload(COLLECTION, { wait: true, keys: ['timestamp'], points: [sourced, 900_000] });
    await page.goto(`${service.url}/ui`);
    await page.waitForSelector('article.memory');
    const all = await timelineIds(service);
    while ((await cardIds(page)).length < all.length) {
      await page.locator('.more').scrollIntoViewIfNeeded();
      await page.waitForTimeout(100);
    }
    assert.deepEqual(await cardIds(page), all);
    const headings = await page.$$eval('.day h2', (hs) => hs.map((h) => h.textContent));
    assert.equal(headings.at(-1), 'No date', 'undated memories come after every day');
    const undatedCards = page.locator('.day:last-child article.memory');
    assert.deepEqual(
      await undatedCards.evaluateAll((cards) => cards.map((c) => c.getAttribute('data-point-id'))),
      ['900000', sourced],
      'by id, as the store orders them (its integer ids before its UUIDs)',
    );
    assert.match((await undatedCards.first().textContent()) ?? '', /^no date/);

    await page.goto(`${service.url}/ui?undated=only`);
    await page.waitForSelector('article.memory');
    assert.equal(await page.inputValue('select[name=undated]'), 'only');
    assert.match((await page.textContent('.summary [role=status]')) ?? '', /^2 memories match/);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/timeline-undated.png` });
    assert.deepEqual(await seriousViolations(page), []);
    await page.focus(`article[data-point-id="${sourced}"]`);
    await page.keyboard.press('Delete');
    const counts = page.locator('dialog .forget-counts');
    await counts.waitFor();
    assert.equal(await counts.getAttribute('data-points'), '1');
    await page.click('dialog button.danger');
    await page.waitForSelector('dialog .forget-result');
    assert.deepEqual(await client.retrieve(COLLECTION, { ids: [sourced] }), []);
    await page.click('dialog button:has-text("Close")');
    await page.waitForFunction(() => document.querySelectorAll('article.memory').length === 1);
    assert.deepEqual(await cardIds(page), ['900000']);
  });

  test('the health panel shows readiness, points by source, the backlog, the model and the forget log', async () => {
    await page.goto(`${service.url}/ui?view=health`);
    await page.waitForSelector('.health table');
    const text = (await page.textContent('.health')) ?? '';
    for (const expected of ['ready', 'store', 'embedder', 'SillyTavern: 2', 'hermes: 1', 'Forget audit log', 'open']) {
      assert.ok(text.includes(expected), `health shows "${expected}"`);
    }
    const stats = await (await fetch(`${service.url}/bots/mythos/stats`)).json();
    assert.ok(stats.model, 'a model is recorded');
    assert.ok(text.includes(`Model: ${stats.model}`), 'health shows the recorded model');
    assert.match(text, /0 messages\s*waiting to be stored(?!, the oldest)/);
    // One message waits for its chunk: the backlog says so, with its age.
    const saved = await service.post('/save', {
      bot: 'mythos',
      source: 'hermes',
      messages: [{ message_id: 'wait-1', speaker_kind: 'user', text: 'A message still waiting for its chunk.' }],
    });
    assert.equal(saved.json.accepted, 1);
    await page.reload();
    // The forget log's table can render before the stats arrive: wait for the backlog line itself.
    await page.waitForFunction(() => /waiting to be stored/.test(document.querySelector('.health')?.textContent ?? ''));
    const after = (await page.textContent('.health')) ?? '';
    assert.match(after, /1 message\s*waiting to be stored, the oldest for \d+ (s|min)/);
    assert.doesNotMatch(after, /\b1 messages\b/, 'the forget log counts in the singular too');
    assert.deepEqual(await seriousViolations(page), []);
  });

  test('axe-core finds no serious or critical violations on the timeline and the answer of Ask', async () => {
    await page.goto(`${service.url}/ui`);
    await page.waitForSelector('article.memory');
    assert.deepEqual(await seriousViolations(page), []);
    await page.goto(`${service.url}/ui?view=ask`);
    await page.fill('input[name=query]', 'piano');
    await page.click('button[type=submit]');
    await page.waitForSelector('.answer');
    assert.deepEqual(await seriousViolations(page), []);
  });

  test('on a phone in dark mode the timeline fits the screen and passes axe', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    try {
      await phone.goto(`${service.url}/ui`);
      await phone.waitForSelector('article.memory');
      assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= 390), 'no sideways scrolling');
      assert.deepEqual(await seriousViolations(phone), []);
      await phone.screenshot({ path: `${SCREENSHOT_DIR}/timeline-phone-dark.png` });
      const background = () => phone.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.equal(await background(), 'rgb(20, 20, 22)', "the system's dark scheme");
      await phone.click('button:has-text("Light")');
      // The toggle's effect runs after Preact's next render, so the colour is read once that render is done.
      await phone
        .waitForFunction(() => document.documentElement.dataset.theme === 'light', undefined, { timeout: 5_000 })
        .catch(() => undefined);
      assert.equal(await background(), 'rgb(247, 247, 245)', 'the toggle chooses light');
    } finally {
      await phone.close();
    }
  });

  test('an empty bot says there is nothing yet', async () => {
    await page.goto(`${service.url}/ui?bot=empty`);
    await page.waitForSelector('.empty');
    assert.match(await page.textContent('.empty') ?? '', /No memories yet/);
    assert.equal(await page.locator('article.memory').count(), 0);
  });

  test('without keys a page under another host name gets nothing (the loopback guard)', async () => {
    const port = new URL(service.url).port;
    const answer = await page.goto(`http://viewer.example:${port}/ui`);
    assert.equal(answer?.status(), 403);
    assert.match(await page.textContent('body') ?? '', /only answers loopback names/);
    const api = await page.evaluate(async () => (await fetch('/bots/mythos/points')).status);
    assert.equal(api, 403);
  });
});
