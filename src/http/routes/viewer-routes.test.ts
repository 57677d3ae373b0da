/** @module The viewer's routes in-process: timeline order and paging (ties included), filters and their 400s, whoami, the page. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { QdrantClient } from '@qdrant/js-client-rest';
import {
  type TestService,
  startTestService,
  TEST_DIMENSIONS,
  testBot,
} from '../../service/test-support/start-test-service.js';
import type { TimelinePageResponse, WhoamiResponse } from '../../wire/viewer.js';
import { buildViewer } from '../test-support/build-viewer.js';

const KEY = 'viewer-routes-key-1234567890abcdef';
const COLLECTION = 'mem_mythos';

describe('viewer routes', () => {
  let service: TestService;
  const get = async (path: string, key = KEY) => {
    const response = await service.app.request(path, { headers: { authorization: `Bearer ${key}` } });
    return {
      status: response.status,
      headers: response.headers,
      // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
      json: (await response.json().catch(() => null)) as any,
    };
  };

  before(async () => {
    buildViewer();
    service = await startTestService({
      bots: [testBot('mythos'), testBot('empty')],
      config: {
        apiKeys: [
          { name: 'admin', key: KEY, scopes: ['admin'], bots: '*', sources: '*' },
          { name: 'reader', key: `${KEY}-r`, scopes: ['retrieve'], bots: ['mythos'], sources: ['discord'] },
        ],
      },
    });
    // 25 points, five at each of five timestamps: pages must neither skip nor repeat a point at a tie.
    const client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
    await client.createCollection(COLLECTION, { vectors: { size: TEST_DIMENSIONS, distance: 'Cosine' } });
    await client.upsert(COLLECTION, {
      wait: true,
      points: Array.from({ length: 25 }, (_, i) => ({
        id: i + 1,
        vector: Array.from({ length: TEST_DIMENSIONS }, (_, d) => (d === i % TEST_DIMENSIONS ? 1 : 0)),
        payload: {
          text: `[2026-01-0${1 + (i % 5)}]\nHelen: note ${i}`,
          speakers: i % 2 ? 'Helen, Mythos' : 'Helen',
          timestamp: Date.parse(`2026-01-0${1 + (i % 5)}T12:00:00Z`),
          messageCount: 1,
          messageIds: `m${i}`,
          isChunk: true,
          ...(i % 3 === 0 ? {} : { source: i % 3 === 1 ? 'discord' : 'hermes' }),
          ...(i % 4 === 0 ? { isDm: true, channelId: `dm${i}` } : {}),
        },
      })),
    });
  });
  after(() => service.close());

  async function walk(query: string, limit: number): Promise<TimelinePageResponse['points'][number][]> {
    const points: TimelinePageResponse['points'][number][] = [];
    let cursor: string | null = null;
    do {
      const page = await get(
        `/bots/mythos/points?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ''}`,
      );
      assert.equal(page.status, 200);
      points.push(...(page.json as TimelinePageResponse).points);
      cursor = page.json.next_cursor;
    } while (cursor);
    return points;
  }

  test('pages walk every point once, newest first, across timestamps shared by several points', async () => {
    for (const limit of [1, 3, 5, 7, 25, 200]) {
      const points = await walk('', limit);
      assert.equal(points.length, 25, `limit ${limit}`);
      assert.equal(new Set(points.map((p) => p.id)).size, 25, `no repeats at limit ${limit}`);
      const stamps = points.map((p) => p.timestamp);
      assert.deepEqual(
        stamps,
        [...stamps].sort((a, b) => b - a),
      );
    }
    const first = await get('/bots/mythos/points?limit=5');
    assert.equal(first.json.total, 25);
    // Ties go by id in the same direction, as Qdrant orders them.
    assert.equal(first.json.points[0].text, '[2026-01-05]\nHelen: note 24');
  });

  test('filters narrow the timeline and its total exactly as the store counts them', async () => {
    const cases: [string, (p: Record<string, unknown>) => boolean][] = [
      ['&kind=sillytavern', (p) => p.source === undefined],
      ['&kind=memory-pool', (p) => p.source !== undefined],
      ['&source=hermes', (p) => p.source === 'hermes'],
      ['&dm=only', (p) => p.isDm === true],
      ['&dm=exclude&source=discord', (p) => p.isDm !== true && p.source === 'discord'],
      ['&speaker=Mythos', (p) => String(p.speakers).includes('Mythos')],
      ['&text=note%2012', (p) => String(p.text).includes('note 12')],
      ['&from=2026-01-02&to=2026-01-03', (p) => [2, 3].includes(new Date(Number(p.timestamp)).getUTCDate())],
    ];
    const all = await walk('', 200);
    for (const [query, keep] of cases) {
      const expected = all.filter((p) => keep(p as unknown as Record<string, unknown>)).map((p) => p.id);
      const got = await walk(query, 4);
      assert.deepEqual(
        got.map((p) => p.id),
        expected,
        query,
      );
      assert.equal((await get(`/bots/mythos/points?limit=1${query}`)).json.total, expected.length, query);
    }
  });

  test('a bad parameter is a 400 naming it', async () => {
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['limit=1e2', 'limit'],
      ['limit=%200x10', 'limit'],
      ['from=2026-02-30', 'from'],
      ['dm=sometimes', 'dm'],
      ['from=yesterday', 'from'],
      ['from=2026-02-02&to=2026-02-01', 'to'],
      ['kind=sillytavern&source=discord', 'kind'],
      ['cursor=bm90IGEgY3Vyc29y', 'cursor'],
      [`speaker=${'x'.repeat(201)}`, 'speaker'],
    ]) {
      const answer = await get(`/bots/mythos/points?${query}`);
      assert.equal(answer.status, 400, query);
      assert.equal(answer.json.error.field, field, query);
    }
    assert.equal((await get('/bots/mythos/points/not-an-id')).json.error.field, 'id');
    assert.equal((await get('/bots/mythos/points/424242')).status, 404);
    assert.equal((await get('/bots/nobody/points')).status, 404);
  });

  test('the timeline still reads after the collection is deleted and recreated', async () => {
    assert.equal((await get('/bots/empty/points')).status, 200);
    const client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
    await client.createCollection('mem_empty', { vectors: { size: TEST_DIMENSIONS, distance: 'Cosine' } });
    assert.equal((await get('/bots/empty/points')).status, 200);
    await client.deleteCollection('mem_empty');
    await client.createCollection('mem_empty', { vectors: { size: TEST_DIMENSIONS, distance: 'Cosine' } });
    const vector = Array.from({ length: TEST_DIMENSIONS }, () => 0.1);
    await client.upsert('mem_empty', {
      wait: true,
      points: [{ id: 1, vector, payload: { text: 'x', timestamp: 5 } }],
    });
    const answer = await get('/bots/empty/points');
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    assert.equal(answer.json.points.length, 1);
    await client.deleteCollection('mem_empty');
  });

  test('a bot whose collection does not exist yet has no point and an empty selection', async () => {
    assert.equal((await get('/bots/empty/points/1')).status, 404);
    assert.deepEqual((await get('/bots/empty/forget-selection')).json, {
      points: 0,
      messages: 0,
      message_ids: [],
      message_ids_by_source: {},
      kept: 0,
    });
  });

  test('whoami says what the key may do; the timeline needs a key and the retrieve scope', async () => {
    const admin = (await get('/whoami')).json as WhoamiResponse;
    assert.deepEqual(admin, {
      key: 'admin',
      operations: ['save', 'retrieve', 'forget', 'admin'],
      bots: [
        { name: 'mythos', collection: COLLECTION, scope: 'global' },
        { name: 'empty', collection: 'mem_empty', scope: 'global' },
      ],
      sources: '*',
    });
    const reader = (await get('/whoami', `${KEY}-r`)).json as WhoamiResponse;
    assert.deepEqual([reader.operations, reader.sources], [['retrieve'], ['discord']]);
    assert.equal((await service.app.request('/whoami')).status, 401);
    assert.equal((await service.app.request('/bots/mythos/points')).status, 401);
    assert.equal((await get('/bots/mythos/forget-selection', `${KEY}-r`)).status, 403);
    const edit = await service.app.request('/bots/mythos/points/1/text', {
      method: 'PUT',
      headers: { authorization: `Bearer ${KEY}-r`, 'content-type': 'application/json' },
      body: '{"text":"x"}',
    });
    assert.equal(edit.status, 403);
  });

  test("editing SillyTavern's point re-embeds it in place; memory-pool's points are edited through /save", async () => {
    const put = (id: number, body: unknown) =>
      service.app.request(`/bots/mythos/points/${id}/text`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const edited = await put(1, { text: '[2026-01-01]\nHelen: a corrected note' });
    assert.equal(edited.status, 200);
    const detail = await get('/bots/mythos/points/1');
    assert.equal(detail.json.point.text, '[2026-01-01]\nHelen: a corrected note');
    assert.deepEqual(detail.json.messages, []);
    const refused = await put(2, { text: 'x' });
    assert.equal(refused.status, 400);
    assert.match(((await refused.json()) as { error: { message: string } }).error.message, /POST \/save/);
    assert.equal((await put(1, { text: '' })).status, 400);
    assert.equal((await put(1, { text: '   ' })).status, 400);
  });

  test('the page needs no key, and comes with a policy that allows only its own script', async () => {
    const page = await service.app.request('/ui');
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<script type="module" src="\/ui\/app.js">/);
    assert.match(
      page.headers.get('content-security-policy') ?? '',
      /script-src 'self'.*frame-ancestors 'none'/,
    );
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    const script = await service.app.request('/ui/app.js');
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', /javascript/);
    assert.equal((await service.app.request('/ui/..%2fpackage.json')).status, 404);
    assert.equal((await service.app.request('/ui/secrets.txt')).status, 404);
  });
});
