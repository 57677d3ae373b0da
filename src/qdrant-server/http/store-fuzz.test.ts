/**
 * @module The standing fuzz suite of the embedded store: a fixed seed drives a few thousand requests at every
 * route (valid bodies with one part replaced, random JSON, bad JSON, wrong content types, odd collection names,
 * prototype keys, unicode edge cases, huge and deep values), in-process. No answer may be a 5xx, every error
 * must be Qdrant's envelope, Object.prototype must stay untouched, and an upsert → search round trip must
 * still work afterwards. A failure prints the request that caused it; the seed makes it reproducible.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seededRandom } from '../../runtime/seeded-random.js';
import { openTestApp, type TestApp, type TestReply } from './test-support/open-test-app.js';

const SEED = 20261203;
const REQUESTS = 3000;
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const ODD_STRINGS = [
  '',
  ' ',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  '__proto__.polluted',
  '__proto__.hasOwnProperty',
  '__proto__.toString',
  'constructor.prototype.valueOf',
  'a.constructor.name',
  `a${'.k'.repeat(20_000)}`,
  'a.__proto__.b',
  'a[].constructor',
  '\u0000',
  '\ud800',
  '\udfff\ud800',
  '\u202e\u0635',
  'e\u0301',
  '👩‍👩‍👧‍👦',
  '\uFEFF',
  '"quoted"',
  'a\\b',
  'x'.repeat(5000),
  'a.b[0].c[]',
  'a[99999999999999999999]',
  '[',
  '..',
  '%2F',
  '1e309',
  'NaN',
  '2023-13-45T25:61:61Z',
  '00000000-0000-0000-0000-000000000000',
];
const ODD_NUMBERS = [
  0,
  -0,
  -1,
  1,
  0.5,
  -0.5,
  1e9,
  1e308,
  -1e308,
  2 ** 53,
  2 ** 64,
  -(2 ** 63),
  Number.MAX_SAFE_INTEGER,
  5e-324,
  4294967296,
];
const COLLECTION_NAMES = [
  'fz',
  'other',
  '__proto__',
  'constructor',
  'a b',
  'ü',
  '%00',
  '..',
  '.',
  'x'.repeat(300),
  'a%2Fb',
  '%F0%9F%92%A9',
  'CON',
  '%ZZ',
];

/** A random JSON value; `depth` bounds the nesting (sometimes past Qdrant's 127, to hit the depth check). */
function randomValue(random: Random, depth: number): unknown {
  const roll = random();
  if (depth <= 0 || roll < 0.25) {
    const kind = Math.floor(random() * 6);
    if (kind === 0) return null;
    if (kind === 1) return random() < 0.5;
    if (kind === 2) return pick(random, ODD_NUMBERS);
    if (kind === 3) return Math.floor(random() * 20) - 5;
    return pick(random, ODD_STRINGS);
  }
  if (roll < 0.3) return deepValue(pick(random, [60, 126, 5000]));
  if (roll < 0.6) {
    return Array.from({ length: Math.floor(random() * 5) }, () => randomValue(random, depth - 1));
  }
  return randomObject(random, depth - 1);
}

function randomObject(random: Random, depth: number): Record<string, unknown> {
  // JSON.parse keeps `__proto__` as an own key, which an object literal would turn into a prototype.
  const out: Record<string, unknown> = JSON.parse('{}');
  for (let i = Math.floor(random() * 4); i > 0; i--) {
    const key = random() < 0.3 ? pick(random, ODD_STRINGS) : pick(random, FIELD_NAMES);
    Object.defineProperty(out, key, {
      value: randomValue(random, depth),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** A token for a value nested `depth` deep; expandDeep swaps in its text after stringify, which would overflow on it. */
function deepValue(depth: number): unknown {
  return `__deep_${depth}__`;
}

function expandDeep(text: string): string {
  return text.replace(/"__deep_(\d+)__"/g, (_, depth: string) => {
    const n = Number(depth);
    let open = '';
    let close = '';
    for (let i = 0; i < n; i++) {
      open += i % 2 === 0 ? '{"k":' : '[';
      close = (i % 2 === 0 ? '}' : ']') + close;
    }
    return `${open}1${close}`;
  });
}

const FIELD_NAMES = [
  'vectors',
  'size',
  'distance',
  'points',
  'id',
  'ids',
  'vector',
  'payload',
  'filter',
  'must',
  'should',
  'must_not',
  'min_should',
  'key',
  'match',
  'value',
  'any',
  'except',
  'text',
  'range',
  'gt',
  'lte',
  'limit',
  'offset',
  'with_payload',
  'with_vector',
  'score_threshold',
  'query',
  'prefetch',
  'order_by',
  'keys',
  'field_name',
  'field_schema',
  'nested',
  'is_empty',
  'is_null',
  'has_id',
  'values_count',
  'geo_radius',
  'datetime_range',
  'exact',
  'searches',
  'fusion',
  'batch',
  'include',
  'exclude',
];

/** Valid bodies per route, which the fuzzer mostly mutates in one place (more interesting than pure noise). */
const ROUTES: [method: string, path: string, template: () => unknown][] = [
  ['PUT', '/collections/{c}', () => ({ vectors: { size: 3, distance: 'Cosine' } })],
  ['GET', '/collections/{c}', () => undefined],
  ['GET', '/collections/{c}/exists', () => undefined],
  ['DELETE', '/collections/{c}', () => undefined],
  ['GET', '/collections', () => undefined],
  [
    'PUT',
    '/collections/{c}/points?wait=true',
    () => ({ points: [{ id: 1, vector: [0.1, 0.2, 0.3], payload: { a: 1, t: 'x', tags: ['p'] } }] }),
  ],
  [
    'PUT',
    '/collections/{c}/points',
    () => ({
      batch: {
        ids: [2, 3],
        vectors: [
          [1, 0, 0],
          [0, 1, 0],
        ],
      },
    }),
  ],
  ['POST', '/collections/{c}/points/delete?wait=true', () => ({ points: [3] })],
  ['POST', '/collections/{c}/points', () => ({ ids: [1, 2], with_payload: true, with_vector: true })],
  ['GET', '/collections/{c}/points/1', () => undefined],
  [
    'POST',
    '/collections/{c}/points/scroll',
    () => ({ limit: 10, filter: { must: [{ key: 'a', match: { value: 1 } }] }, with_payload: ['a'] }),
  ],
  ['POST', '/collections/{c}/points/scroll', () => ({ limit: 5, order_by: { key: 'a', direction: 'desc' } })],
  ['POST', '/collections/{c}/points/count', () => ({ exact: true, filter: { must: [{ has_id: [1] }] } })],
  [
    'POST',
    '/collections/{c}/points/search',
    () => ({ vector: [1, 0, 0], limit: 3, with_payload: { exclude: ['t'] }, score_threshold: 0.1 }),
  ],
  ['POST', '/collections/{c}/points/search/batch', () => ({ searches: [{ vector: [1, 0, 0], limit: 2 }] })],
  [
    'POST',
    '/collections/{c}/points/query',
    () => ({ query: [1, 0, 0], prefetch: [{ query: [0, 1, 0], limit: 5 }], limit: 3 }),
  ],
  [
    'POST',
    '/collections/{c}/points/query',
    () => ({ prefetch: [{ query: [1, 0, 0] }], query: { fusion: 'rrf' } }),
  ],
  ['POST', '/collections/{c}/points/query/batch', () => ({ searches: [{ query: 1, limit: 2 }] })],
  [
    'POST',
    '/collections/{c}/points/payload?wait=true',
    () => ({ payload: { b: { c: 2 } }, points: [1], key: 'a' }),
  ],
  ['PUT', '/collections/{c}/points/payload?wait=true', () => ({ payload: { a: 2 }, filter: { must: [] } })],
  [
    'POST',
    '/collections/{c}/points/payload/delete?wait=true',
    () => ({ keys: ['a', 'tags[]'], points: [1] }),
  ],
  ['POST', '/collections/{c}/points/payload/clear?wait=true', () => ({ points: [2] })],
  ['PUT', '/collections/{c}/index?wait=true', () => ({ field_name: 'a', field_schema: 'integer' })],
  [
    'PUT',
    '/collections/{c}/index',
    () => ({ field_name: 't', field_schema: { type: 'text', tokenizer: 'word' } }),
  ],
  ['DELETE', '/collections/{c}/index/a?wait=true', () => undefined],
];

/** Replaces one random node of `value` (a field, an element, or the whole) with `replacement`. */
function mutate(random: Random, value: unknown, replacement: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null || depth > 6 || random() < 0.2) return replacement;
  if (Array.isArray(value)) {
    if (value.length === 0) return [replacement];
    const copy = [...value];
    const at = Math.floor(random() * copy.length);
    copy[at] = mutate(random, copy[at], replacement, depth + 1);
    return copy;
  }
  const copy: Record<string, unknown> = JSON.parse(JSON.stringify(value));
  const keys = Object.keys(copy);
  const key =
    random() < 0.2 || keys.length === 0 ? pick(random, [...FIELD_NAMES, ...ODD_STRINGS]) : pick(random, keys);
  Object.defineProperty(copy, key, {
    value: mutate(random, copy[key], replacement, depth + 1),
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}

const BAD_TEXTS = [
  '',
  '{',
  '{"a":}',
  '[1,2',
  'null',
  'true',
  '"str"',
  '{"points": [}',
  '{"a":1}{"b":2}',
  '\u0000',
  '{"a": NaN}',
  '{"a": 1e999}',
  `{"x":"${'\\u'.repeat(3)}"}`,
  '['.repeat(5000),
  `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`,
  '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}',
];
const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  '',
  'application/json; charset=latin1',
  'application/vnd.api+json',
];

/** Browser origins: without a key only the loopback ones may get past the origin guard. */
const ORIGINS = [
  'http://localhost:8000',
  'http://127.0.0.1:1',
  'https://evil.example',
  'null',
  'file://',
  'http://[::1]',
];
const isLoopbackOrigin = (origin: string) =>
  /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(origin);

interface FuzzCase {
  readonly method: string;
  readonly path: string;
  readonly body?: string;
  readonly headers: Record<string, string>;
}

function nextCase(random: Random): FuzzCase {
  const [method, template, makeBody] = pick(random, ROUTES);
  const name = random() < 0.8 ? 'fz' : encodeURIComponent(pick(random, COLLECTION_NAMES));
  const path = template.replace('{c}', random() < 0.05 ? pick(random, COLLECTION_NAMES) : name);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (random() < 0.05) headers.origin = pick(random, ORIGINS);
  const roll = random();
  let body: string | undefined;
  if (roll < 0.55) body = JSON.stringify(mutate(random, makeBody() ?? {}, randomValue(random, 4)));
  else if (roll < 0.7) body = JSON.stringify(randomValue(random, 5));
  else if (roll < 0.8) body = pick(random, BAD_TEXTS);
  else if (roll < 0.88) {
    body = JSON.stringify(makeBody() ?? {});
    headers['content-type'] = pick(random, CONTENT_TYPES);
  } else {
    const valid = makeBody();
    body = valid === undefined ? undefined : JSON.stringify(valid);
  }
  // fetch's Request cannot carry a GET body; a DELETE may.
  if (body !== undefined) body = expandDeep(body);
  if (method === 'GET' || (method === 'DELETE' && random() < 0.8)) body = undefined;
  return { method, path, headers, ...(body === undefined ? {} : { body }) };
}

/** What every answer must be: no 5xx, and errors in Qdrant's envelope (401 is Qdrant's plain text; 404 for an unknown route is empty). */
function assertWellFormed(reply: TestReply, request: FuzzCase): void {
  const where = () =>
    `${request.method} ${request.path} ${request.body?.slice(0, 300)} → ${reply.status} ${reply.text.slice(0, 300)}`;
  assert.ok(reply.status < 500, where());
  if (reply.status >= 400 && reply.text !== '') {
    assert.equal(typeof reply.json?.status?.error, 'string', where());
    assert.equal(typeof reply.json.time, 'number', where());
  }
  if (reply.status === 200 && reply.headers.get('content-type')?.startsWith('application/json')) {
    assert.notEqual(reply.json, undefined, where());
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !isLoopbackOrigin(origin)) assert.equal(reply.status, 403, where());
  assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), PROTOTYPE_NAMES, where());
  assert.equal(({} as Record<string, unknown>).polluted, undefined, where());
}

describe('store fuzz', () => {
  let app: TestApp;
  before(async () => {
    app = openTestApp();
  });
  after(() => app.close());

  test(`${REQUESTS} seeded requests at every route: no 5xx, Qdrant's envelope, no prototype pollution`, async () => {
    const random = seededRandom(SEED);
    const statuses = new Map<number, number>();
    for (let i = 0; i < REQUESTS; i++) {
      // Keep a live collection most of the time, so the point and payload routes get past the 404.
      if (i % 200 === 0) {
        await app.send('PUT', '/collections/fz', { vectors: { size: 3, distance: 'Cosine' } });
        await app.send('PUT', '/collections/fz/points?wait=true', {
          points: [
            { id: 1, vector: [0.1, 0.2, 0.3], payload: { a: 1, t: 'x', tags: ['p'] } },
            { id: 2, vector: [0.3, 0.2, 0.1], payload: JSON.parse('{"__proto__":{"a":1},"constructor":2}') },
          ],
        });
      }
      const request = nextCase(random);
      const reply = await app.send(request.method, request.path, request.body, request.headers);
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      assertWellFormed(reply, request);
    }
    // The fuzzer must reach the routes, not only their 400s.
    assert.ok((statuses.get(200) ?? 0) > REQUESTS / 10, JSON.stringify([...statuses]));
    assert.ok((statuses.get(400) ?? 0) > REQUESTS / 10, JSON.stringify([...statuses]));
  });

  test('after the fuzzing, an upsert → search round trip still works', async () => {
    await app.send('DELETE', '/collections/after');
    assert.equal(
      (await app.send('PUT', '/collections/after', { vectors: { size: 3, distance: 'Dot' } })).status,
      200,
    );
    const upsert = await app.send('PUT', '/collections/after/points?wait=true', {
      points: [
        { id: 7, vector: [1, 0, 0], payload: { note: 'still works' } },
        { id: 8, vector: [0, 1, 0], payload: {} },
      ],
    });
    assert.equal(upsert.status, 200, upsert.text);
    const search = await app.send('POST', '/collections/after/points/search', {
      vector: [1, 0, 0],
      limit: 1,
      with_payload: true,
    });
    assert.deepEqual(
      search.json.result.map((p: { id: number; payload: unknown }) => [p.id, p.payload]),
      [[7, { note: 'still works' }]],
    );
  });
});
