/**
 * @module The memory viewer on a service with API keys: the page asks for a key once and keeps it for the tab
 * (sessionStorage, never the URL), shows only what the key may do, and the service refuses the rest (403).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { HashingEmbedder } from '../../../src/embedding/hashing/hashing-embedder.js';
import { sillyTavernPayload } from '../../../src/http/test-support/sillytavern-payload.js';
import { type TestService, startTestService } from '../../../src/service/test-support/start-test-service.js';
import { TEST_DIMENSIONS, testBot } from '../../../src/config/test-support/test-bot.js';
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

const ADMIN = 'viewer-admin-key-1234567890abcdef';
const READER = 'viewer-reader-key-1234567890abcdef';
const HERMES_CURATOR = 'viewer-hermes-key-1234567890abcdef';
const COLLECTION = 'mem_mythos';
const asAdmin = { authorization: `Bearer ${ADMIN}` };

async function signIn(page: Page, url: string, key: string) {
  await page.goto(url);
  await page.fill('input[type=password]', key);
  await page.click('button[type=submit]');
}

describe('the memory viewer with API keys', { skip: skipBrowser }, () => {
  let service: TestService;
  let browser: Browser;

  before(async () => {
    buildViewer();
    service = await startTestService({
      bots: [testBot('mythos'), testBot('secret')],
      config: {
        apiKeys: [
          { name: 'admin', key: ADMIN, scopes: ['admin'], bots: '*', sources: '*' },
          { name: 'reader', key: READER, scopes: ['retrieve'], bots: ['mythos'], sources: '*' },
          {
            name: 'hermes-curator',
            key: HERMES_CURATOR,
            scopes: ['retrieve', 'forget', 'save'],
            bots: ['mythos'],
            sources: ['hermes'],
          },
        ],
      },
    });
    await seedMemories(service, 'mythos', { authorization: `Bearer ${ADMIN}` });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await service?.close();
  });

  test('the page asks for a key, refuses a wrong one, and keeps a right one for the tab only', async () => {
    const page = await browser.newPage();
    try {
      await signIn(page, `${service.url}/ui`, 'not-a-key');
      await page.waitForSelector('[role=alert]');
      assert.match(await page.textContent('[role=alert]') ?? '', /not accepted/);
      assert.equal(await page.evaluate(() => sessionStorage.length), 0, 'a refused key is not kept');
      await page.fill('input[type=password]', READER);
      await page.click('button[type=submit]');
      await page.waitForSelector('article.memory');
      assert.ok(!page.url().includes(READER), 'never in the URL');
      assert.equal(await page.evaluate(() => Object.values(sessionStorage).join()), READER);
      assert.equal(await page.evaluate(() => localStorage.length), 0);
      await page.reload();
      await page.waitForSelector('article.memory');
      assert.match(await page.textContent('.who') ?? '', /key: reader/);
      assert.deepEqual(await seriousViolations(page), []);
    } finally {
      await page.close();
    }
    const fresh = await browser.newPage();
    try {
      await fresh.goto(`${service.url}/ui`);
      await fresh.waitForSelector('input[type=password]');
    } finally {
      await fresh.close();
    }
  });

  test('a key without forget sees no forget or edit buttons, only its bots, and gets 403 if it tries', async () => {
    const page = await browser.newPage();
    try {
      await signIn(page, `${service.url}/ui?source=discord`, READER);
      await page.waitForSelector('article.memory');
      assert.equal(await page.locator('button:has-text("Forget")').count(), 0);
      assert.equal(await page.locator('button:has-text("Edit")').count(), 0);
      assert.deepEqual(await page.$$eval('header select option', (os) => os.map((o) => o.textContent)), ['mythos']);
      const id = await page.getAttribute('article.memory', 'data-point-id');
      await page.focus('article.memory');
      await page.keyboard.press('Delete');
      assert.equal(await page.locator('dialog').count(), 0, 'Delete offers nothing');
      const tried = await page.evaluate(async (point) => {
        const key = Object.values(sessionStorage)[0];
        const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
        const detail = await (await fetch(`/bots/mythos/points/${point}`, { headers })).json();
        const ids = detail.messages.map((m: { message_id: string }) => m.message_id);
        const forget = await fetch('/forget', { method: 'POST', headers, body: JSON.stringify({ bot: 'mythos', message_ids: ids }) });
        const selection = await fetch('/bots/mythos/forget-selection?source=discord', { headers });
        const secret = await fetch('/bots/secret/points', { headers });
        return [forget.status, selection.status, secret.status];
      }, id);
      assert.deepEqual(tried, [403, 403, 403]);
    } finally {
      await page.close();
    }
  });

  test('Enter on a card opens a read-only key its details: messages with speakers and ids, source, channel, point id', async () => {
    const page = await browser.newPage();
    try {
      await signIn(page, `${service.url}/ui?source=discord&dm=exclude`, READER);
      await page.waitForSelector('article.memory');
      const id = (await page.getAttribute('article.memory', 'data-point-id'))!;
      await page.focus('article.memory');
      await page.keyboard.press('Enter');
      const dialog = page.locator('dialog[open]');
      await dialog.locator('.point-messages li').first().waitFor();
      const detail = await (
        await fetch(`${service.url}/bots/mythos/points/${id}`, { headers: { authorization: `Bearer ${READER}` } })
      ).json();
      const facts = (await dialog.locator('.point-facts').textContent()) ?? '';
      for (const expected of ['discord', 'c1', 'g1', id]) assert.ok(facts.includes(expected), `shows ${expected}`);
      const lines = await dialog.locator('.point-messages li .meta').allTextContents();
      assert.deepEqual(
        lines.map((line) => line.replace(/ · .* · id /, ' ')),
        detail.messages.map((m: { speaker_kind: string; message_id: string }) =>
          `${m.speaker_kind === 'self' ? 'the companion' : 'Helen'} ${m.message_id}`,
        ),
      );
      assert.equal(await dialog.locator('textarea, button.danger, button.primary').count(), 0, 'nothing to change');
      await page.screenshot({ path: `${SCREENSHOT_DIR}/point-detail.png` });
      assert.deepEqual(await seriousViolations(page), []);
      await page.keyboard.press('Escape');
      await page.waitForSelector('dialog', { state: 'detached' });
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-point-id')), id, 'focus comes back');
      // SillyTavern's memory: the ids its payload holds.
      await page.goto(`${service.url}/ui?kind=sillytavern`);
      await page.focus('article[data-point-id="900000"]');
      await page.keyboard.press('Enter');
      await page.waitForSelector('dialog[open] .point-facts');
      // The facts show at once; the point's messages and ids arrive with its detail, after "Loading…".
      await page.waitForSelector('dialog[open] p:has-text("Loading…")', { state: 'detached' });
      const text = (await page.textContent('dialog[open]')) ?? '';
      assert.match(text, /SillyTavern/);
      assert.match(text, /st-0-a st-0-b/);
      await page.click('dialog button:has-text("Close")');
      await page.waitForSelector('dialog', { state: 'detached' });
    } finally {
      await page.close();
    }
  });

  test("a key limited to one source may forget that source's memories only; SillyTavern's need admin", async () => {
    const page = await browser.newPage();
    try {
      await signIn(page, `${service.url}/ui`, HERMES_CURATOR);
      await page.waitForSelector('article.memory');
      const forgettable = await page.$$eval('article.memory', (cards) =>
        cards.filter((c) => c.querySelector('button.danger')).map((c) => c.querySelector('.badge')?.textContent),
      );
      assert.deepEqual([...new Set(forgettable)], ['hermes']);
      // It browses every source's memories, so the source filter offers them all.
      const offered = await page.$$eval('#source-choices option', (os: HTMLOptionElement[]) => os.map((o) => o.value));
      assert.deepEqual([...offered].sort(), ['discord', 'hermes', 'import']);
      // The bulk selection leaves out what the key may not forget, and says so.
      await page.goto(`${service.url}/ui?kind=memory-pool`);
      await page.click('button:has-text("Forget all matching")');
      await page.waitForSelector('dialog .forget-counts');
      assert.equal(await page.textContent('dialog .forget-counts'), '1 memory and 2 messages will be forgotten.');
      assert.match(await page.textContent('dialog') ?? '', /matching memories will stay/);
      await page.click('dialog button:has-text("Cancel")');
      const edit = await page.evaluate(async () => {
        const key = Object.values(sessionStorage)[0];
        const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
        return (await fetch('/bots/mythos/points/900000/text', { method: 'PUT', headers, body: '{"text":"x"}' })).status;
      });
      assert.equal(edit, 403, "SillyTavern's points are admin's to edit");
    } finally {
      await page.close();
    }
  });

  test("an admin key forgets one SillyTavern memory from its card: the confirmed counts are what goes", async () => {
    const page = await browser.newPage();
    const before = { points: await countPoints(service, COLLECTION), journal: await journalCounts(service, 'mythos', asAdmin) };
    try {
      await signIn(page, `${service.url}/ui?kind=sillytavern`, ADMIN);
      await page.waitForSelector('article[data-point-id="900001"] button.danger');
      await page.focus('article[data-point-id="900001"]');
      await page.keyboard.press('Delete');
      const counts = page.locator('dialog .forget-counts');
      await counts.waitFor();
      assert.equal(await counts.textContent(), '1 memory and 2 messages will be forgotten.');
      await page.click('dialog button.danger');
      await page.waitForSelector('dialog .forget-result');
      assert.equal(await page.textContent('dialog .forget-result'), '2 messages forgotten; 1 memory deleted, 0 memories rewritten.');
      assert.deepEqual(await storeClient(service).retrieve(COLLECTION, { ids: [900_001] }), []);
      assert.equal(await countPoints(service, COLLECTION), before.points - 1);
      const after = await journalCounts(service, 'mythos', asAdmin);
      // SillyTavern's messages were never in the journal: they are tombstoned, so an import never brings them back.
      assert.deepEqual(after, { messages: before.journal.messages, forgotten: before.journal.forgotten + 2 });
      await page.click('dialog button:has-text("Close")');
      await page.waitForFunction(() => document.querySelectorAll('article.memory').length === 1);
    } finally {
      await page.close();
    }
  });

  test("an admin key's bulk forget counts SillyTavern's memories too, and sees them in the audit log", async () => {
    const page = await browser.newPage();
    const november = {
      must: [{ key: 'timestamp', range: { gte: Date.parse('2026-11-28T00:00:00Z'), lt: Date.parse('2026-11-30T00:00:00Z') } }],
    };
    const matching = await countPoints(service, COLLECTION, november);
    const unsourced = await countPoints(service, COLLECTION, { ...november, must: [...november.must, { is_empty: { key: 'source' } }] });
    assert.equal(unsourced, 1, "one of SillyTavern's memories is in the range");
    const before = { points: await countPoints(service, COLLECTION), journal: await journalCounts(service, 'mythos', asAdmin) };
    try {
      await signIn(page, `${service.url}/ui?from=2026-11-28&to=2026-11-29`, ADMIN);
      await page.click('button:has-text("Forget all matching")');
      const counts = page.locator('dialog .forget-counts');
      await counts.waitFor();
      assert.equal(await counts.getAttribute('data-points'), String(matching));
      const messages = Number(await counts.getAttribute('data-messages'));
      assert.equal(messages, 4 + 2, "Helen's four Discord messages and the two SillyTavern's memory holds");
      assert.doesNotMatch(await page.textContent('dialog') ?? '', /will stay/);
      await page.click('dialog button.danger');
      await page.waitForSelector('dialog .forget-result');
      assert.equal(await countPoints(service, COLLECTION, november), 0);
      assert.equal(await countPoints(service, COLLECTION), before.points - matching);
      const after = await journalCounts(service, 'mythos', asAdmin);
      assert.equal(before.journal.messages - after.messages, messages - 2, "the journal's rows: the Discord messages");
      assert.equal(after.forgotten - before.journal.forgotten, messages, 'a tombstone for every message confirmed');
      await page.click('dialog button:has-text("Close")');
      await page.waitForSelector('.empty');
      await page.click('nav button:has-text("Health")');
      await page.waitForSelector('.health table');
      assert.match(await page.textContent('.health table') ?? '', /admin.*include_unsourced/s);
    } finally {
      await page.close();
    }
  });
  test("forgetting one SillyTavern memory whose messages the journal also held: every card that went leaves the page", async () => {
    const text = '[2026-12-03]\nHelen: The cello teacher is called Ines.\nMythos: Ines, noted.';
    const [vector] = await new HashingEmbedder({ dimensions: TEST_DIMENSIONS }).embed([text]);
    await storeClient(service).upsert(COLLECTION, {
      wait: true,
      points: [{ id: 900_007, vector: Array.from(vector!), payload: sillyTavernPayload(text, 7) }],
    });
    // The journal's copy of one of its messages (an earlier import), written as a chunk of its own.
    const saved = await service.post(
      '/save',
      {
        bot: 'mythos',
        source: 'sillytavern',
        channel_id: 'st-import',
        messages: [{ message_id: 'st-7-a', speaker_kind: 'user', speaker_name: 'Helen', user_id: 'u-helen', text: 'The cello teacher is called Ines.', ts: Date.parse('2026-12-03T18:00:00Z'), channel_id: 'st-import' }],
      },
      asAdmin,
    );
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    await service.writer.runOnce({ flush: true });
    const copies = await storeClient(service).scroll(COLLECTION, {
      filter: { must: [{ key: 'source', match: { value: 'sillytavern' } }] },
      limit: 10,
    });
    assert.equal(copies.points.length, 1);
    const copy = String(copies.points[0]!.id);
    const page = await browser.newPage();
    try {
      await signIn(page, `${service.url}/ui`, ADMIN);
      await page.waitForSelector(`article[data-point-id="${copy}"]`);
      await page.waitForSelector('article[data-point-id="900007"] button.danger');
      const total = await countPoints(service, COLLECTION);
      assert.equal(await page.textContent('.summary [role=status]'), `${total} memories`);
      await page.focus('article[data-point-id="900007"]');
      await page.keyboard.press('Delete');
      await page.locator('dialog .forget-counts').waitFor();
      await page.click('dialog button.danger');
      await page.waitForSelector('dialog .forget-result');
      assert.match(await page.textContent('dialog .forget-result') ?? '', /2 memories deleted/);
      // Both cards and both memories leave the page while the result is still shown.
      await page.waitForFunction(
        ([id, expected]) =>
          !document.querySelector(`article[data-point-id="${id}"]`) &&
          !document.querySelector('article[data-point-id="900007"]') &&
          document.querySelector('.summary [role=status]')?.textContent === expected,
        [copy, `${total - 2} memories`] as const,
        { timeout: 10_000 },
      );
      assert.equal(await countPoints(service, COLLECTION), total - 2);
    } finally {
      await page.close();
    }
  });
  test('a source the counts do not know, or with spaces at either end, is found by typing it', async () => {
    const texts = ['[2026-12-04]\nHelen: A note kept in the archive.', '[2026-12-04]\nHelen: A note with a padded source.'];
    const vectors = await new HashingEmbedder({ dimensions: TEST_DIMENSIONS }).embed(texts);
    // Written straight into the store, as another writer might: no journal rows name these sources.
    await storeClient(service).upsert(COLLECTION, {
      wait: true,
      points: ['archive', ' padded '].map((source, i) => ({
        id: 900_020 + i,
        vector: Array.from(vectors[i]!),
        payload: { ...sillyTavernPayload(texts[i]!, 20 + i), source },
      })),
    });
    const page = await browser.newPage();
    try {
      await signIn(page, `${service.url}/ui`, ADMIN);
      await page.waitForSelector('article.memory');
      for (const [source, id] of [
        ['archive', '900020'],
        [' padded ', '900021'],
      ] as const) {
        await page.locator('details.more-filters').evaluate((details) => {
          (details as HTMLDetailsElement).open = true;
        });
        await page.fill('input[name=source]', source);
        await page.click('button[type=submit]:has-text("Apply")');
        await page.waitForFunction(
          (expected) => new URLSearchParams(location.search).get('source') === expected,
          source,
        );
        await page.waitForSelector(`article[data-point-id="${id}"]`);
        assert.deepEqual(await page.$$eval('article.memory', (cards) => cards.map((c) => c.getAttribute('data-point-id'))), [id]);
      }
    } finally {
      await page.close();
    }
  });
});
