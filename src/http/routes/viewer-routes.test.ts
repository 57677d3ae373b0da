/**
 * @module The viewer's routes in-process: timeline order and paging (ties and undated points included),
 * filters and their 400s, the timestamp index (asked for at start-up and on write, never by a read), whoami,
 * the page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { QdrantClient } from '@qdrant/js-client-rest';
import { type TestService, startTestService } from '../../service/test-support/start-test-service.js';
import { TEST_DIMENSIONS, testBot } from '../../config/test-support/test-bot.js';
import type { TimelinePageResponse, WhoamiResponse } from '../../wire/viewer.js';
import { buildViewer } from '../test-support/build-viewer.js';

const KEY = 'viewer-routes-key-1234567890abcdef';
const COLLECTION = 'mem_mythos';
/** Points another writer left without a numeric timestamp (ids 26-29), and one with a fractional ms (id 30). */
const UNDATED: Record<string, unknown>[] = [
  {},
  { timestamp: '2026-01-03' },
  { timestamp: null },
  { timestamp: [] },
];
const FRACTIONAL_MS = Date.parse('2026-01-03T12:00:00Z') + 0.5;
/** A bot whose 10k points share one timestamp (a bulk import of one day, say), between two dated points. */
const CROWD = 10_000;
const CROWD_AT = Date.parse('2026-02-01T00:00:00Z');

const unitVector = (i: number) =>
  Array.from({ length: TEST_DIMENSIONS }, (_, d) => (d === i % TEST_DIMENSIONS ? 1 : 0));

/** Until the store lists the timeline's index on `collection` (start-up asks for it without waiting). */
async function timelineIndexOf(client: QdrantClient, collection: string): Promise<string | undefined> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const schema = (await client.getCollection(collection)).payload_schema ?? {};
    const type = (schema.timestamp as { data_type?: string } | undefined)?.data_type;
    if (type !== undefined) return type;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}

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

  const options = {
    bots: [testBot('mythos'), testBot('empty'), testBot('crowd')],
    config: {
      apiKeys: [
        { name: 'admin', key: KEY, scopes: ['admin' as const], bots: '*' as const, sources: '*' as const },
        {
          name: 'reader',
          key: `${KEY}-r`,
          scopes: ['retrieve' as const],
          bots: ['mythos'],
          sources: ['discord'],
        },
      ],
    },
  };

  before(async () => {
    buildViewer();
    const first = await startTestService(options);
    // 25 points, five at each of five timestamps: pages must neither skip nor repeat a point at a tie.
    const client = new QdrantClient({ url: first.storeUrl!, checkCompatibility: false });
    await client.createCollection(COLLECTION, { vectors: { size: TEST_DIMENSIONS, distance: 'Cosine' } });
    await client.upsert(COLLECTION, {
      wait: true,
      points: Array.from({ length: 25 }, (_, i) => ({
        id: i + 1,
        vector: unitVector(i),
        payload: {
          text: `[2026-01-0${1 + (i % 5)}]\nHelen: note ${i}`,
          speakers: i % 2 ? 'Helen, Mythos' : 'Helen',
          timestamp: Date.parse(`2026-01-0${1 + (i % 5)}T12:00:00Z`),
          messageCount: 1,
          messageIds: `m${i}`,
          isChunk: true,
          ...(i % 3 === 0 ? {} : { source: i % 3 === 1 ? 'discord' : 'hermes' }),
          // DMs have a channel of their own; the rest sit in six channels of two guilds (c1, c3, c5 in g1).
          ...(i % 4 === 0
            ? { isDm: true, channelId: `dm${i}` }
            : { channelId: `c${i % 6}`, guildId: `g${i % 2}` }),
        },
      })),
    });
    await client.upsert(COLLECTION, {
      wait: true,
      points: [...UNDATED, { timestamp: FRACTIONAL_MS }].map((stamp, i) => ({
        id: 26 + i,
        vector: unitVector(i + 3),
        payload: {
          text: `Helen: written by hand ${i}`,
          speakers: 'Helen',
          messageIds: `hand${i}`,
          ...(i === 1 ? { source: 'discord' } : {}),
          ...stamp,
        },
      })),
    });
    await client.createCollection('mem_crowd', { vectors: { size: TEST_DIMENSIONS, distance: 'Cosine' } });
    for (let from = 0; from < CROWD; from += 2000) {
      await client.upsert('mem_crowd', {
        wait: true,
        points: Array.from({ length: 2000 }, (_, i) => ({
          id: from + i + 1,
          vector: unitVector(i),
          payload: { text: `imported ${from + i}`, speakers: 'Helen', timestamp: CROWD_AT },
        })),
      });
    }
    await client.upsert('mem_crowd', {
      wait: true,
      points: [
        { id: 20_001, vector: unitVector(1), payload: { text: 'newer', timestamp: CROWD_AT + 1 } },
        { id: 20_002, vector: unitVector(2), payload: { text: 'older', timestamp: CROWD_AT - 1 } },
      ],
    });
    // The collections exist (as SillyTavern left them) when memory-pool starts: start-up asks for the index.
    await first.stop();
    service = await startTestService({ ...options, dir: first.dir });
    const restarted = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
    assert.equal(await timelineIndexOf(restarted, COLLECTION), 'float');
    assert.equal(await timelineIndexOf(restarted, 'mem_crowd'), 'float');
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

  test('pages walk every point once: dated newest first (a tie by id), then the undated ones by id', async () => {
    for (const limit of [1, 3, 5, 7, 25, 200]) {
      const points = await walk('', limit);
      assert.equal(points.length, 30, `limit ${limit}`);
      assert.equal(new Set(points.map((p) => p.id)).size, 30, `no repeats at limit ${limit}`);
      const dated = points.slice(0, 26);
      assert.ok(
        dated.every((p) => !p.undated && p.timestamp > 0),
        `limit ${limit}`,
      );
      const stamps = dated.map((p) => p.timestamp);
      assert.deepEqual(
        stamps,
        [...stamps].sort((a, b) => b - a),
      );
      assert.deepEqual(
        points.slice(26).map((p) => [p.id, p.undated, p.timestamp]),
        [26, 27, 28, 29].map((id) => [id, true, 0]),
        `undated last at limit ${limit}`,
      );
    }
    const first = await get('/bots/mythos/points?limit=5');
    assert.equal(first.json.total, 30);
    assert.equal(first.json.order, 'newest-first');
    // Ties go by id.
    assert.equal(first.json.points[0].text, '[2026-01-05]\nHelen: note 4');
    const fractional = (await walk('', 200)).find((p) => p.id === 30);
    assert.equal(fractional?.timestamp, Math.floor(FRACTIONAL_MS), 'a fractional ms is dated, to the ms');
  });

  test('10k points with one timestamp page with a cursor of bounded size, none skipped or repeated', async () => {
    const seen = new Set<string | number>();
    const order: (string | number)[] = [];
    let cursor: string | null = null;
    let longest = 0;
    let pages = 0;
    do {
      const query: string = cursor ? `&cursor=${cursor}` : '';
      const page = await get(`/bots/crowd/points?limit=200${query}`);
      assert.equal(page.status, 200, JSON.stringify(page.json));
      for (const point of (page.json as TimelinePageResponse).points) {
        seen.add(point.id);
        order.push(point.id);
      }
      cursor = page.json.next_cursor;
      longest = Math.max(longest, cursor?.length ?? 0);
      pages += 1;
    } while (cursor);
    assert.equal(order.length, CROWD + 2);
    assert.equal(seen.size, CROWD + 2);
    assert.equal(pages, Math.ceil((CROWD + 2) / 200));
    assert.equal(order[0], 20_001, 'the newer point first');
    assert.equal(order.at(-1), 20_002, 'the older point last');
    assert.ok(longest < 100, `a cursor of ${longest} characters`);
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
      [
        '&from=2026-01-02&to=2026-01-03',
        (p) => !p.undated && [2, 3].includes(new Date(Number(p.timestamp)).getUTCDate()),
      ],
      ['&undated=only', (p) => p.undated === true],
      ['&undated=exclude', (p) => p.undated !== true],
      ['&undated=only&source=discord', (p) => p.undated === true && p.source === 'discord'],
      ['&undated=only&kind=sillytavern&speaker=Helen', (p) => p.undated === true && p.source === undefined],
      ['&undated=only&text=by%20hand%203', (p) => p.id === 29],
      ['&channel_id=c3', (p) => p.channelId === 'c3'],
      ['&channel_id=dm8', (p) => p.channelId === 'dm8'],
      ['&guild_id=g1', (p) => p.guildId === 'g1'],
      ['&guild_id=g0&kind=sillytavern', (p) => p.guildId === 'g0' && p.source === undefined],
      ['&guild_id=g1&channel_id=c1&source=discord', (p) => p.channelId === 'c1' && p.source === 'discord'],
      ['&guild_id=g0&channel_id=c3', () => false],
    ];
    const placeCases = [
      '&channel_id=c3',
      '&channel_id=dm8',
      '&guild_id=g1',
      '&guild_id=g0&kind=sillytavern',
      '&guild_id=g1&channel_id=c1&source=discord',
    ];
    const all = await walk('', 200);
    for (const [query, keep] of cases) {
      const expected = all.filter((p) => keep(p as unknown as Record<string, unknown>)).map((p) => p.id);
      if (placeCases.includes(query))
        assert.ok(expected.length > 1 || query.includes('dm8'), `${query} finds some`);
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
      ['undated=yes', 'undated'],
      ['undated=only&from=2026-01-01', 'undated'],
      [`cursor=${Buffer.from('["t",5,"not-an-id"]').toString('base64url')}`, 'cursor'],
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

  test('a collection recreated without the index reads in storage order, builds none, and is indexed on the next write', async () => {
    assert.equal((await get('/bots/empty/points')).status, 200);
    const client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
    await client.createCollection('mem_empty', { vectors: { size: TEST_DIMENSIONS, distance: 'Cosine' } });
    const vector = Array.from({ length: TEST_DIMENSIONS }, () => 0.1);
    await client.upsert('mem_empty', {
      wait: true,
      points: [5, 7, 6].map((day, i) => ({
        id: i + 1,
        vector,
        payload: { text: `x${i}`, timestamp: Date.UTC(2026, 0, day) },
      })),
    });
    const plain = await get('/bots/empty/points?limit=2');
    assert.equal(plain.status, 200, JSON.stringify(plain.json));
    assert.equal(plain.json.order, 'storage');
    assert.deepEqual(
      plain.json.points.map((p: { id: number }) => p.id),
      [1, 2],
    );
    const rest = await get(`/bots/empty/points?limit=2&cursor=${plain.json.next_cursor}`);
    assert.deepEqual([rest.json.points.map((p: { id: number }) => p.id), rest.json.next_cursor], [[3], null]);
    const schema = async () => (await client.getCollection('mem_empty')).payload_schema ?? {};
    assert.deepEqual(await schema(), {}, 'a read never creates an index');

    const saved = await service.post(
      '/save',
      {
        bot: 'empty',
        messages: [
          {
            message_id: 'e1',
            speaker_kind: 'user',
            text: 'Hello again, it is me.',
            ts: Date.UTC(2026, 0, 9),
          },
        ],
      },
      { authorization: `Bearer ${KEY}` },
    );
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    await service.writer.runOnce({ flush: true });
    assert.equal(await timelineIndexOf(client, 'mem_empty'), 'float');
    const ordered = await get('/bots/empty/points');
    assert.equal(ordered.json.order, 'newest-first');
    assert.deepEqual(
      ordered.json.points.map((p: { timestamp: number }) => p.timestamp),
      [9, 7, 6, 5].map((day) => Date.UTC(2026, 0, day)),
    );
    await client.deleteCollection('mem_empty');
  });

  test('a bot whose collection does not exist yet has no point and an empty selection', async () => {
    assert.equal((await get('/bots/empty/points/1')).status, 404);
    assert.deepEqual((await get('/bots/empty/forget-selection')).json, {
      points: 0,
      messages: 0,
      message_ids: [],
      message_ids_by_source: {},
      unsourced_point_ids: [],
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
        { name: 'crowd', collection: 'mem_crowd', scope: 'global' },
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
