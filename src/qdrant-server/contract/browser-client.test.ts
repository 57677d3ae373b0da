/**
 * st-qdrant-memory's calls made by a real browser (headless Chromium) from another origin, as SillyTavern
 * makes them: preflights with the `api-key` header, then the exact fetches of the extension. With a key that
 * works from any origin (as on Qdrant); without one it works from a loopback origin only, and a foreign
 * page (or a DNS-rebound host name) can neither read nor write. Host names are mapped to 127.0.0.1 by
 * Chromium's resolver rules, so `st.example` is a foreign origin served from this machine.
 * Needs Debian's chromium (.ci/run installs it); skipped with a note elsewhere unless
 * MEMORY_POOL_REQUIRE_BROWSER=1, which CI sets so a missing browser fails instead.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { readEnv } from '../../runtime/read-env.js';
import { launchChromium, skipWithoutChromium } from '../../runtime/test-support/debian-chromium.js';
import { type ContractTarget, isRealQdrant, openTarget } from './target.js';

const skip = skipWithoutChromium;

/** What the page reports back: each call's status and the parts of the answer the extension reads. */
interface BrowserRun {
  readonly steps: { readonly name: string; readonly status: number; readonly read: unknown }[];
}

/** A page origin the browser treats as a foreign web site (resolved to 127.0.0.1 by the resolver rules). */
const FOREIGN_HOST = 'st.example';
/** A host name an attacker would rebind to 127.0.0.1 to make the store same-origin with its page. */
const REBIND_HOST = 'rebind.example';

/** The extension's calls, run inside a tab: each call's status, or `blocked` when the browser refused it. */
function runStFlow(args: { url: string; apiKey: string; collection: string }): Promise<BrowserRun> {
  const { url, apiKey, collection } = args;
  return (async () => {
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
      try {
        const response = await fetch(`${url}${path}`, {
          method,
          headers,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const json = await response.json().catch(() => null);
        steps.push({ name, status: response.status, read: read ? read(json) : undefined });
      } catch {
        steps.push({ name, status: 0, read: 'blocked' });
      }
    };
    const vector = [0.1, 0.2, 0.3, 0.4];
    await call('list', 'GET', '/collections', undefined, (j) => Array.isArray(j.result.collections));
    await call('exists?', 'GET', `/collections/${collection}`);
    await call('create', 'PUT', `/collections/${collection}`, { vectors: { size: 4, distance: 'Cosine' } });
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
          // A fixed id: crypto.randomUUID needs a secure context, which an http page on a LAN name is not.
          id: '5c56c793-69f3-4fbf-87e6-c4bf54c28c26',
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
  })();
}

const WORKING_FLOW = [
  ['list', 200, true],
  ['exists?', 404, undefined],
  ['create', 200, undefined],
  ['size', 200, 4],
  ['save', 200, undefined],
  ['search', 200, ['Mythos_1_1,Mythos_2_2']],
  ['dedupe', 200, 1],
  ['delete', 200, true],
];

/** A browser, and a page server whose pages are reachable under loopback and mapped foreign host names. */
function useBrowser() {
  const state = {} as { browser: Browser; page: Server; pagePort: number };
  before(async () => {
    state.page = createServer((_, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>st</title>'),
    );
    await new Promise<void>((resolve) => state.page.listen(0, '127.0.0.1', resolve));
    state.pagePort = (state.page.address() as AddressInfo).port;
    state.browser = await launchChromium(`MAP ${FOREIGN_HOST} 127.0.0.1, MAP ${REBIND_HOST} 127.0.0.1`);
  });
  after(async () => {
    await state.browser?.close();
    await new Promise((resolve) => state.page?.close(resolve));
  });
  /** A tab on `origin`. The test runner's TypeScript transform names functions with a `__name` helper;
   * evaluated functions carry those calls into the page, so the page gets a no-op of its own. */
  async function openPage(origin: string) {
    const tab = await state.browser.newPage();
    await tab.addInitScript('globalThis.__name = (fn) => fn;');
    await tab.goto(origin);
    return tab;
  }
  return {
    openPage,
    loopbackOrigin: () => `http://127.0.0.1:${state.pagePort}`,
    foreignOrigin: () => `http://${FOREIGN_HOST}:${state.pagePort}`,
  };
}

const stepsOf = (run: BrowserRun) => run.steps.map((s) => [s.name, s.status, s.read]);

describe('with a key, a browser page on any origin (SillyTavern) talks to the store', { skip }, () => {
  let target: ContractTarget;
  const browser = useBrowser();
  before(async () => {
    target = await openTarget({
      apiKey: isRealQdrant() ? readEnv(process.env, 'QDRANT_API_KEY') : 'browser-test-key-0123456789',
    });
  });
  after(async () => {
    await target?.close();
  });

  test('connection test, create, save without wait, search and the substring dedupe scroll all pass CORS', async (t) => {
    if (target.apiKey === undefined) return t.skip('the target runs without an API key');
    const tab = await browser.openPage(browser.foreignOrigin());
    const collection = target.uniqueCollection('st_browser');
    const run = await tab.evaluate(runStFlow, { url: target.url, apiKey: target.apiKey, collection });
    assert.deepEqual(stepsOf(run), WORKING_FLOW);
    await tab.close();
  });

  test('without the key the browser gets a readable 401, not a CORS failure', async (t) => {
    if (target.apiKey === undefined) return t.skip('the target runs without an API key');
    const tab = await browser.openPage(browser.foreignOrigin());
    const status = await tab.evaluate(async (url) => (await fetch(`${url}/collections`)).status, target.url);
    assert.equal(status, 401);
    await tab.close();
  });
});

describe('without a key, only a loopback page reaches the store', {
  skip: skip || (isRealQdrant() && 'Qdrant allows every origin'),
}, () => {
  let target: ContractTarget;
  const browser = useBrowser();
  before(async () => {
    target = await openTarget();
  });
  after(async () => {
    await target?.close();
  });

  test('a page on a loopback origin (SillyTavern on localhost) runs the whole flow', async () => {
    const tab = await browser.openPage(browser.loopbackOrigin());
    const collection = target.uniqueCollection('st_loopback');
    const run = await tab.evaluate(runStFlow, { url: target.url, apiKey: '', collection });
    assert.deepEqual(stepsOf(run), WORKING_FLOW);
    await tab.close();
  });

  test('a page on a foreign origin can neither read nor write', async () => {
    const kept = target.uniqueCollection('st_kept');
    assert.equal(
      (await target.http('PUT', `/collections/${kept}`, { vectors: { size: 4, distance: 'Cosine' } })).status,
      200,
    );
    const tab = await browser.openPage(browser.foreignOrigin());
    const collection = target.uniqueCollection('st_foreign');
    const run = await tab.evaluate(runStFlow, { url: target.url, apiKey: '', collection });
    assert.ok(
      run.steps.every((s) => s.read === 'blocked'),
      JSON.stringify(run.steps),
    );
    // Requests a page may send without a preflight (no-cors, text/plain) are refused before any route runs.
    const statuses = await tab.evaluate(
      async ({ url, kept }) => {
        const sent = [
          fetch(`${url}/collections/${kept}/points?wait=true`, {
            method: 'POST',
            mode: 'no-cors',
            headers: { 'content-type': 'text/plain' },
            body: JSON.stringify({ points: [{ id: 1, vector: [1, 0, 0, 0], payload: {} }] }),
          }),
          fetch(`${url}/collections/${kept}/points/delete?wait=true`, {
            method: 'POST',
            mode: 'no-cors',
            headers: { 'content-type': 'text/plain' },
            body: JSON.stringify({ filter: {} }),
          }),
        ];
        return Promise.all(sent.map((p) => p.then((r) => r.type).catch(() => 'blocked')));
      },
      { url: target.url, kept },
    );
    assert.deepEqual(statuses, ['opaque', 'opaque']);
    await tab.close();
    assert.equal((await target.http('GET', `/collections/${collection}/exists`)).json.result.exists, false);
    const info = await target.http('GET', `/collections/${kept}`);
    assert.equal(info.status, 200);
    assert.equal(info.json.result.points_count, 0);
  });

  test('a page that rebinds its own host name to the store reads only a 403', async () => {
    const port = new URL(target.url).port;
    const tab = await browser.openPage(`http://${REBIND_HOST}:${port}/healthz`);
    const reply = await tab.evaluate(async () => {
      const response = await fetch('/collections');
      return { status: response.status, text: await response.text() };
    });
    assert.equal(reply.status, 403);
    assert.match(reply.text, /requests for host/);
    await tab.close();
  });
});
