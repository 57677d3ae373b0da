/**
 * @module The memory viewer in Debian's Chromium on a service without keys (loopback): browse and page the
 * timeline, filter through the URL, ask, correct, forget one and in bulk (the confirmation's counts are what
 * leaves the store), the loopback guard, an empty bot, accessibility and screenshots.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { type TestService, startTestService, testBot } from '../../../src/service/test-support/start-test-service.js';
import type { TimelinePageResponse } from '../../../src/wire/viewer.js';
import {
  SCREENSHOT_DIR,
  buildViewer,
  countPoints,
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
});
