/**
 * st-qdrant-memory's calls made by a real browser (headless Chromium) from another origin, as SillyTavern
 * makes them: preflights with the `api-key` header, then the exact fetches of the extension.
 * Needs Debian's chromium (.ci/run installs it); skipped with a note elsewhere unless
 * MEMORY_POOL_REQUIRE_BROWSER=1, which CI sets so a missing browser fails instead.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { type Browser, chromium } from 'playwright-core';
import { type ContractTarget, openTarget } from './target.js';

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const required = process.env.MEMORY_POOL_REQUIRE_BROWSER === '1';
const skip = !available && !required ? `needs ${CHROMIUM} (apt-get install chromium)` : false;

/** What the page reports back: each call's status and the parts of the answer the extension reads. */
interface BrowserRun {
  readonly steps: { readonly name: string; readonly status: number; readonly read: unknown }[];
}

describe('a browser on another origin (SillyTavern) talks to the store', { skip }, () => {
  let target: ContractTarget;
  let page: Server;
  let pageOrigin: string;
  let browser: Browser;

  before(async () => {
    target = await openTarget({
      apiKey: process.env.QDRANT_URL ? process.env.QDRANT_API_KEY : 'browser-test-key-0123456789',
    });
    page = createServer((_, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>st</title>'),
    );
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  /** A tab on the page's origin. The test runner's TypeScript transform names functions with a `__name`
   * helper; evaluated functions carry those calls into the page, so the page gets a no-op of its own. */
  async function openPage() {
    const tab = await browser.newPage();
    await tab.addInitScript('globalThis.__name = (fn) => fn;');
    await tab.goto(pageOrigin);
    return tab;
  }

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => page?.close(resolve));
    await target?.close();
  });

  test('connection test, create, save without wait, search and the substring dedupe scroll all pass CORS', async () => {
    const tab = await openPage();
    const collection = target.uniqueCollection('st_browser');
    const run = await tab.evaluate(
      async ({ url, apiKey, collection }): Promise<BrowserRun> => {
        const headers: Record<string, string> = { 'Content-Type': 'application/json' };
        if (apiKey) headers['api-key'] = apiKey;
        const steps: BrowserRun['steps'] = [];
        const call = async (
          name: string,
          method: string,
          path: string,
          body?: unknown,
          // biome-ignore lint/suspicious/noExplicitAny: the page reads Qdrant's JSON the way the extension does, untyped
          read?: (json: any) => unknown,
        ) => {
          const response = await fetch(`${url}${path}`, {
            method,
            headers,
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          });
          const json = await response.json().catch(() => null);
          steps.push({ name, status: response.status, read: read ? read(json) : undefined });
        };
        const vector = [0.1, 0.2, 0.3, 0.4];
        await call('list', 'GET', '/collections', undefined, (j) => Array.isArray(j.result.collections));
        await call('exists?', 'GET', `/collections/${collection}`);
        await call('create', 'PUT', `/collections/${collection}`, {
          vectors: { size: 4, distance: 'Cosine' },
        });
        await call(
          'size',
          'GET',
          `/collections/${collection}`,
          undefined,
          (j) => j.result.config.params.vectors.size,
        );
        await call('save', 'PUT', `/collections/${collection}/points`, {
          points: [
            {
              id: crypto.randomUUID(),
              vector,
              payload: {
                text: '[2026-12-01]\nHelen: hi',
                speakers: 'Helen',
                messageCount: 1,
                timestamp: 1,
                messageIds: 'Mythos_1_1,Mythos_2_2',
                isChunk: true,
              },
            },
          ],
        });
        // Un-waited writes may land a moment later on a real Qdrant.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await call(
          'search',
          'POST',
          `/collections/${collection}/points/search`,
          { vector, limit: 10, score_threshold: 0.3, with_payload: true },
          (j) => j.result.map((p: { payload: { messageIds: string } }) => p.payload.messageIds),
        );
        await call(
          'dedupe',
          'POST',
          `/collections/${collection}/points/scroll`,
          {
            filter: { should: [{ key: 'messageIds', match: { text: 'Mythos_2_2' } }] },
            limit: 1,
            with_payload: false,
          },
          (j) => j.result.points.length,
        );
        await call('delete', 'DELETE', `/collections/${collection}`, undefined, (j) => j.result);
        return { steps };
      },
      { url: target.url, apiKey: target.apiKey ?? '', collection },
    );
    assert.deepEqual(
      run.steps.map((s) => [s.name, s.status, s.read]),
      [
        ['list', 200, true],
        ['exists?', 404, undefined],
        ['create', 200, undefined],
        ['size', 200, 4],
        ['save', 200, undefined],
        ['search', 200, ['Mythos_1_1,Mythos_2_2']],
        ['dedupe', 200, 1],
        ['delete', 200, true],
      ],
    );
    await tab.close();
  });

  test('without the key the browser gets a readable 401, not a CORS failure', async (t) => {
    if (target.apiKey === undefined) return t.skip('the target runs without an API key');
    const tab = await openPage();
    const status = await tab.evaluate(async (url) => (await fetch(`${url}/collections`)).status, target.url);
    assert.equal(status, 401);
    await tab.close();
  });
});
