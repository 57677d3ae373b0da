/** @module Tests that a `limit` or `offset` far beyond the collection's size returns every point, exactly ranked and streamed as valid JSON. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seededRandom } from '../../runtime/seeded-random.js';
import { SLICE_ITEMS } from './json-slices.js';
import { formatRecord, formatScoredPoint } from './point-json.js';
import { parseQueryRequest } from './parse-query.js';
import { parseScrollRequest } from './parse-scroll.js';
import { parseSearchRequest } from './parse-search.js';
import { openTestApp, type TestApp, type TestReply } from './test-support/open-test-app.js';

const COUNT = SLICE_ITEMS * 3 + 17;
const HUGE = 1_000_000_000;

describe('huge limits and offsets', () => {
  let app: TestApp;
  const random = seededRandom(11);
  const vector = () => [random(), random(), random()];
  before(async () => {
    app = openTestApp();
    await app.send('PUT', '/collections/h', { vectors: { size: 3, distance: 'Cosine' } });
    const points = Array.from({ length: COUNT }, (_, id) => ({
      id,
      vector: vector(),
      payload: { n: id, t: `p${id}` },
    }));
    const reply = await app.send('PUT', '/collections/h/points?wait=true', { points });
    assert.equal(reply.status, 200);
    const index = { field_name: 'n', field_schema: 'integer' };
    assert.equal((await app.send('PUT', '/collections/h/index?wait=true', index)).status, 200);
  });
  after(() => app.close());

  test('search and query with limit 1e9 answer what limit = size answers', async () => {
    const query = vector();
    for (const [path, body, pick] of [
      [
        '/collections/h/points/search',
        { vector: query, with_payload: true },
        (j: TestReply['json']) => j.result,
      ],
      [
        '/collections/h/points/query',
        { query, with_payload: true },
        (j: TestReply['json']) => j.result.points,
      ],
      ['/collections/h/points/scroll', { with_payload: true }, (j: TestReply['json']) => j.result.points],
    ] as const) {
      const huge = await app.send('POST', path, { ...body, limit: HUGE });
      const exact = await app.send('POST', path, { ...body, limit: COUNT });
      assert.equal(huge.status, 200, huge.text.slice(0, 200));
      assert.equal(huge.headers.get('content-type'), 'application/json');
      assert.equal(pick(huge.json).length, COUNT);
      assert.deepEqual(pick(huge.json), pick(exact.json), path);
      assert.equal(huge.json.status, 'ok');
      assert.equal(typeof huge.json.time, 'number');
    }
  });

  test('a sliced huge answer is byte for byte the JSON.stringify of the same result', async () => {
    const query = vector();
    const collection = () => app.engine.collection('h');
    const cases: [string, Record<string, unknown>, (body: unknown) => Promise<unknown>][] = [
      [
        '/collections/h/points/search',
        { vector: query, limit: HUGE, with_payload: true, with_vector: true },
        async (body) => (await collection().search(parseSearchRequest(body))).map(formatScoredPoint),
      ],
      [
        '/collections/h/points/query',
        { query, limit: HUGE, with_payload: true },
        async (body) => ({
          points: (await collection().query(parseQueryRequest(body))).map(formatScoredPoint),
        }),
      ],
      [
        '/collections/h/points/scroll',
        { limit: HUGE, with_payload: true },
        async (body) => {
          const page = await collection().scroll(parseScrollRequest(body));
          return { points: page.points.map(formatRecord), next_page_offset: page.nextPageOffset };
        },
      ],
      [
        '/collections/h/points/scroll',
        { limit: HUGE, order_by: { key: 'n', direction: 'desc' } },
        async (body) => {
          const page = await collection().scroll(parseScrollRequest(body));
          return { points: page.points.map(formatRecord), next_page_offset: page.nextPageOffset };
        },
      ],
    ];
    for (const [path, body, unsliced] of cases) {
      const reply = await app.send('POST', path, body);
      assert.equal(reply.status, 200, reply.text.slice(0, 200));
      // Everything but `time`, which differs between the two answers.
      const expected = JSON.stringify({ result: await unsliced(body), status: 'ok', time: reply.json.time });
      // Every point, so the answer was long enough to be serialized in slices.
      assert.equal(reply.text.match(/"id":/g)?.length, COUNT, path);
      assert.equal(reply.text, expected, `${path} ${JSON.stringify(Object.keys(body))}`);
    }
  });

  test('results are ranked best first with ties by id, as a full scan ranks them', async () => {
    const query = vector();
    const reply = await app.send('POST', '/collections/h/points/search', { vector: query, limit: HUGE });
    const scores: number[] = reply.json.result.map((p: { score: number }) => p.score);
    for (let i = 1; i < scores.length; i++) assert.ok(scores[i - 1]! >= scores[i]!, `rank ${i}`);
    const top10 = await app.send('POST', '/collections/h/points/search', { vector: query, limit: 10 });
    assert.deepEqual(reply.json.result.slice(0, 10), top10.json.result);
  });

  test('an offset past the end is an empty answer, and huge offsets do not overflow', async () => {
    for (const offset of [COUNT, HUGE, Number.MAX_SAFE_INTEGER]) {
      const reply = await app.send('POST', '/collections/h/points/search', {
        vector: vector(),
        limit: HUGE,
        offset,
      });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.json.result, []);
    }
    const batch = await app.send('POST', '/collections/h/points/search/batch', {
      searches: [
        { vector: vector(), limit: HUGE },
        { vector: vector(), limit: 2 },
      ],
    });
    assert.deepEqual(
      batch.json.result.map((r: unknown[]) => r.length),
      [COUNT, 2],
    );
  });
});
