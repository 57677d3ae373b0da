/**
 * @module Tests that a huge read does not hold the process: over real HTTP, a small request sent while a
 * `limit: 1e9` read of 40k points is being worked out is answered before that read's answer is ready, and one
 * sent while the answer streams is received before the stream ends.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type ListeningHttpServer, listenHttp } from '../../runtime/listen-http.js';
import { seededRandom } from '../../runtime/seeded-random.js';
import type { StoreEngine } from '../engine/engine-api.js';
import { openStoreEngine } from '../engine/index.js';
import { createQdrantApp } from './qdrant-app.js';

const POINTS = 40_000;
const HUGE = 1_000_000_000;

describe('a huge read leaves room for other requests', () => {
  let dataDir: string;
  let engine: StoreEngine;
  let server: ListeningHttpServer;
  /** What the server did, in order: `<tag> answered` once the app has returned that request's response. */
  const events: string[] = [];
  let onBigStarted: () => void = () => {};

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'mp-responsive-'));
    engine = openStoreEngine({ dataDir });
    engine.createCollection('r', { vectors: { size: 4, distance: 'Cosine', extras: {} }, settings: {} });
    const random = seededRandom(5);
    const points = Array.from({ length: POINTS }, (_, id) => ({
      id,
      vector: [random(), random(), random(), random()],
      // Few distinct values: order_by then breaks many ties by id.
      payload: { n: id % 997, text: `point number ${id}` },
    }));
    engine.collection('r').upsert(points);
    engine.collection('r').createIndex('n', { type: 'integer' });
    const app = createQdrantApp({ engine });
    server = await listenHttp(
      async (request) => {
        const tag = request.headers.get('x-test-tag') ?? 'other';
        events.push(`${tag} arrived`);
        if (tag === 'big') onBigStarted();
        const response = await app.fetch(request);
        events.push(`${tag} answered`);
        return response;
      },
      '127.0.0.1',
      0,
    );
  });

  after(async () => {
    await server.close();
    engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function post(path: string, body: unknown, tag: string): Promise<Response> {
    return fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-test-tag': tag },
      body: JSON.stringify(body),
    });
  }

  async function countPoints(tag: string): Promise<number> {
    const reply = await post('/collections/r/points/count', { exact: true }, tag);
    return ((await reply.json()) as { result: { count: number } }).result.count;
  }

  for (const [name, path, body] of [
    [
      'scroll with order_by',
      '/collections/r/points/scroll',
      { limit: HUGE, order_by: 'n', with_payload: true },
    ],
    ['scroll', '/collections/r/points/scroll', { limit: HUGE, with_payload: true }],
    ['search', '/collections/r/points/search', { vector: [1, 2, 3, 4], limit: HUGE, with_payload: true }],
    ['query', '/collections/r/points/query', { query: [4, 3, 2, 1], limit: HUGE, with_payload: true }],
  ] as const) {
    test(`${name} with limit 1e9: other requests are answered while it is worked out and while it streams`, async () => {
      events.length = 0;
      const started = new Promise<void>((resolve) => {
        onBigStarted = resolve;
      });
      const big = post(path, body, 'big');
      await started;
      // Sent once the server holds the big read: answered before that read's response exists.
      assert.equal(await countPoints('during-work'), POINTS);
      const response = await big;
      const bodyRead = response.text().then((text) => {
        events.push('big body received');
        return text;
      });
      // Sent while the answer streams: its reply arrives before the stream ends.
      assert.equal(await countPoints('during-stream'), POINTS);
      events.push('during-stream received');
      const text = await bodyRead;
      assert.equal(response.status, 200);
      assert.equal(text.match(/"id":/g)?.length, POINTS);
      // A request that arrived while the big read was being worked out is answered first. On a quiet machine a
      // read can be worked out within one slice, before the small request even arrives: then nothing waited.
      const bigAnswered = events.indexOf('big answered');
      assert.ok(
        events.indexOf('during-work answered') < bigAnswered || bigAnswered < events.indexOf('during-work arrived'),
        `answered in order: ${events.join(', ')}`,
      );
      assert.ok(
        events.indexOf('during-stream received') < events.indexOf('big body received'),
        `received in order: ${events.join(', ')}`,
      );
    });
  }
});
