/**
 * @module The viewer's People panel in Debian's Chromium (issue 33): link two accounts seen on Discord and
 * through Hermes into one person, rename, split one off, unlink; each checked back through the API; axe-clean.
 * With keys, only an admin key is offered the panel.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { type TestService, startTestService } from '../../../src/service/test-support/start-test-service.js';
import type { PeopleResponse } from '../../../src/wire/people.js';
import { HashingEmbedder } from '../../../src/embedding/hashing/hashing-embedder.js';
import { TEST_DIMENSIONS } from '../../../src/config/test-support/test-bot.js';
import { sillyTavernPayload } from '../../../src/http/test-support/sillytavern-payload.js';
import {
  SCREENSHOT_DIR,
  buildViewer,
  launchBrowser,
  seriousViolations,
  skipBrowser,
  storeClient,
} from './viewer-harness.js';

const embedder = new HashingEmbedder({ dimensions: TEST_DIMENSIONS });
const embed = async (text: string) => Array.from((await embedder.embed([text]))[0]!);

const READER = 'people-reader-key-1234567890abcdef';

async function seedAccounts(service: TestService) {
  const message = (id: string, extra: Record<string, string>) => ({
    message_id: id,
    speaker_kind: 'user',
    text: `Anna wrote message ${id} about the piano lessons in Lisbon.`,
    ts: Date.now() - 3_600_000,
    ...extra,
  });
  for (const [source, messages] of [
    ['discord', [message('d1', { speaker_name: 'anna_l', discord_user_id: '1234' })]],
    ['hermes', [message('t1', { speaker_name: 'Anna T', user_id: 'telegram:5678' })]],
  ] as const) {
    const saved = await service.post('/save', { bot: 'mythos', source, messages });
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
  }
}

const people = async (service: TestService) =>
  (await (await fetch(`${service.url}/bots/mythos/people`)).json()) as PeopleResponse;

const status = (page: Page, text: string) => page.waitForSelector(`[role=status]:has-text("${text}")`);

describe('the viewer People panel', { skip: skipBrowser }, () => {
  let service: TestService;
  let browser: Browser;
  let page: Page;

  before(async () => {
    buildViewer();
    service = await startTestService();
    await seedAccounts(service);
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await service?.close();
  });

  test('lists the accounts seen but not linked, with their names and sources', async () => {
    await page.goto(`${service.url}/ui?view=people`);
    await page.waitForSelector('legend:has-text("Accounts seen, not linked")');
    const seen = await page.$$eval('.link-accounts li', (items) => items.map((i) => i.textContent ?? ''));
    assert.equal(seen.length, 2);
    assert.ok(seen.some((line) => /Discord 1234 as anna_l · discord · 1 message/.test(line)), seen.join('\n'));
    assert.ok(seen.some((line) => /telegram:5678 as Anna T · hermes/.test(line)), seen.join('\n'));
    assert.deepEqual(await seriousViolations(page), []);
  });

  test('links two accounts as a new person', async () => {
    await page.check('label:has-text("Discord 1234") input');
    await page.check('label:has-text("telegram:5678") input');
    await page.fill('.link-accounts input:not([type=checkbox])', 'Anna');
    await page.click('button:has-text("Link 2 accounts")');
    await status(page, 'Linked 2 accounts as Anna.');
    const [anna] = (await people(service)).people;
    assert.equal(anna?.name, 'Anna');
    assert.deepEqual(anna?.accounts.map((a) => JSON.stringify(a)).sort(), [
      '{"discord_user_id":"1234"}',
      '{"user_id":"telegram:5678"}',
    ]);
    await page.waitForSelector('article.person h3:has-text("Anna")');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/viewer-people.png`, fullPage: true });
    assert.match((await page.textContent('.people')) ?? '', /Every account seen is linked to a person/);
    assert.deepEqual(await seriousViolations(page), []);
  });

  test('the timeline filters by the person: the points where they speak, on every account', async () => {
    await service.writer.runOnce({ flush: true });
    // SillyTavern's point of someone else that names Anna in its text: the filter is by who speaks.
    const text = '[2026-11-29]\nBob: I met Anna at the market.\nMythos: Say hello from me.';
    await storeClient(service).upsert('mem_mythos', {
      wait: true,
      points: [{ id: 910_000, vector: await embed(text), payload: { ...sillyTavernPayload(text, 0), speakers: 'Bob, Mythos' } }],
    });
    await page.goto(`${service.url}/ui`);
    await page.waitForFunction(() => document.querySelectorAll('article.memory').length === 3);
    await page.click('summary:has-text("More filters")');
    const [anna] = (await people(service)).people;
    assert.deepEqual(
      await page.$$eval('select[name=person] option', (options) => options.map((o) => o.textContent)),
      ['anyone', 'Anna'],
    );
    await page.selectOption('select[name=person]', anna!.id);
    await page.click('button:has-text("Apply")');
    await page.waitForURL(new RegExp(`person=${anna!.id}`));
    await page.waitForFunction(() => document.querySelectorAll('article.memory').length === 2);
    assert.match((await page.textContent('.summary [role=status]')) ?? '', /^2 memories match/);
    const cards = await page.$$eval('article.memory', (all) => all.map((card) => card.textContent ?? ''));
    for (const card of cards) assert.match(card, /Anna: Anna wrote message (d1|t1)/);
    assert.deepEqual(await seriousViolations(page), []);
    // The bookmarked view opens filtered, with the person chosen.
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll('article.memory').length === 2);
    assert.equal(await page.inputValue('select[name=person]'), anna!.id);
  });

  test('renames, splits an account off, and unlinks the person (nothing forgotten)', async () => {
    await page.goto(`${service.url}/ui?view=people`);
    await page.waitForSelector('article.person h3:has-text("Anna")');
    await page.fill('article.person input', 'Anna Lima');
    await page.click('article.person button:has-text("Rename")');
    await status(page, 'Renamed to Anna Lima.');
    assert.equal((await people(service)).people[0]?.name, 'Anna Lima');

    await page.click('button[aria-label="Split off telegram:5678 from Anna Lima"]');
    await status(page, 'telegram:5678 is no longer Anna Lima.');
    const split = await people(service);
    assert.deepEqual(split.people[0]?.accounts, [{ discord_user_id: '1234' }]);
    assert.deepEqual(split.unlinked.map((s) => s.account), [{ user_id: 'telegram:5678' }]);

    await page.click('button:has-text("Unlink Anna Lima")');
    await status(page, 'Anna Lima is unlinked.');
    const after = await people(service);
    assert.deepEqual(after.people, []);
    assert.equal(after.unlinked.length, 2);
    await page.waitForSelector('text=Nobody is linked yet.');
    const stats = await (await fetch(`${service.url}/bots/mythos/stats`)).json();
    assert.equal(stats.messages.bySource.discord + stats.messages.bySource.hermes, 2, 'no message forgotten');
  });

  test('a refused change is announced in the service’s words', async () => {
    await page.check('label:has-text("Discord 1234") input');
    await page.fill('.link-accounts input:not([type=checkbox])', '   ');
    await page.click('button:has-text("Link 1 account")');
    await page.waitForSelector('[role=alert]');
    assert.match((await page.textContent('[role=alert]')) ?? '', /name: must not be empty/);
    assert.deepEqual((await people(service)).people, []);
    assert.deepEqual(await seriousViolations(page), []);
  });
});

describe('the People panel with keys', { skip: skipBrowser }, () => {
  test('is not offered to a key without admin', async () => {
    buildViewer();
    const service = await startTestService({
      config: { apiKeys: [{ name: 'reader', key: READER, scopes: ['retrieve'], bots: '*', sources: '*' }] },
    });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${service.url}/ui?view=people`);
      await page.fill('input[type=password]', READER);
      await page.click('button[type=submit]');
      await page.waitForSelector('nav[aria-label=Views]');
      assert.deepEqual(await page.$$eval('nav[aria-label=Views] button', (b) => b.map((x) => x.textContent)), [
        'Timeline',
        'Ask',
        'Health',
      ]);
      assert.equal(await page.$('section.people'), null);
    } finally {
      await browser.close();
      await service.close();
    }
  });
});
