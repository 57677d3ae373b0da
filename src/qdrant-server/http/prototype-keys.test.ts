/**
 * @module Tests that `__proto__`, `constructor` and `prototype` are plain JSON keys to the store: in stored payloads
 * and as path segments of every payload path operation, none reaches Object.prototype, none is a 5xx, and every
 * stored key round-trips as data (as in Qdrant, where they are just keys).
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { openTestApp, type TestApp } from './test-support/open-test-app.js';

const NAMES = ['__proto__', 'constructor', 'prototype'] as const;
/** Path forms each prototype name is tried in: top-level, nested under a real key, above a real key, under `[]`. */
const pathsOf = (n: string) => [
  n,
  `${n}.hasOwnProperty`,
  `${n}.toString`,
  `${n}.x`,
  `a.${n}`,
  `a.${n}.valueOf`,
  `list[].${n}`,
  `list[0].${n}.x`,
  `${n}[]`,
  `${n}[0]`,
  `"${n}".constructor`,
];
const ALL_PATHS = NAMES.flatMap(pathsOf);

// JSON.stringify keeps an own `__proto__` key, which an object literal would turn into a prototype.
const STORED = JSON.parse(
  '{"__proto__":{"x":1,"polluted":true},"constructor":{"x":2},"prototype":[{"x":3}],' +
    '"a":{"__proto__":{"x":4},"constructor":"c","b":1},"list":[{"__proto__":{"x":5},"constructor":6}],"tag":"t"}',
);

/** A payload without any prototype-named key, where a path lookup would fall through to Object.prototype. */
const PLAIN = { a: { b: 1 }, list: [{ c: 1 }], tag: 't' };

function assertPristine(): void {
  assert.equal(typeof Object.prototype.hasOwnProperty, 'function');
  assert.equal(typeof Object.prototype.toString, 'function');
  assert.equal(typeof Object.prototype.valueOf, 'function');
  assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), PROTOTYPE_NAMES);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(({} as Record<string, unknown>).x, undefined);
}
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

describe('prototype keys in payloads and paths', () => {
  let app: TestApp;
  const reset = async () => {
    const reply = await app.send('PUT', '/collections/p/points?wait=true', {
      points: [
        { id: 1, vector: [1, 0], payload: STORED },
        { id: 2, vector: [0, 1], payload: PLAIN },
      ],
    });
    assert.equal(reply.status, 200, reply.text);
  };
  const payload = async () => (await app.send('GET', '/collections/p/points/1')).json.result.payload;
  const send = async (method: string, path: string, body: unknown) => {
    const reply = await app.send(method, path, body);
    assert.ok(
      reply.status < 500,
      `${method} ${path} ${JSON.stringify(body)} → ${reply.status} ${reply.text}`,
    );
    assertPristine();
    return reply;
  };

  before(async () => {
    app = openTestApp();
    await app.send('PUT', '/collections/p', { vectors: { size: 2, distance: 'Dot' } });
    await reset();
  });
  afterEach(assertPristine);
  after(() => app.close());

  test('a stored payload with prototype keys round-trips exactly, as JSON data', async () => {
    await reset();
    const reply = await app.send('GET', '/collections/p/points/1');
    assert.equal(reply.status, 200);
    const text = reply.text;
    assert.match(text, /"__proto__":\{"x":1,"polluted":true\}/);
    assert.deepEqual(reply.json.result.payload, STORED);
  });

  test('the reported defect: deleting `__proto__.hasOwnProperty` leaves Object.prototype alone', async () => {
    await reset();
    const reply = await send('POST', '/collections/p/points/payload/delete?wait=true', {
      keys: ['__proto__.hasOwnProperty'],
      points: [1, 2],
    });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(await payload(), STORED);
    assert.deepEqual((await app.send('GET', '/collections/p/points/2')).json.result.payload, PLAIN);
    assert.equal((await app.send('GET', '/collections')).status, 200);
  });

  test('delete at every prototype path removes only own keys', async () => {
    for (const path of ALL_PATHS) {
      await reset();
      await send('POST', '/collections/p/points/payload/delete?wait=true', { keys: [path], points: [1, 2] });
    }
    await reset();
    await send('POST', '/collections/p/points/payload/delete?wait=true', {
      keys: ['__proto__.x', 'a.constructor', 'list[].__proto__'],
      points: [1, 2],
    });
    const after = await payload();
    // biome-ignore lint/suspicious/noProto: reads a stored "__proto__" key back as data
    assert.deepEqual(after.__proto__, { polluted: true });
    assert.equal(Object.hasOwn(after.a, 'constructor'), false);
    assert.deepEqual(after.list, [{ constructor: 6 }]);
  });

  test('set with a prototype key path writes own data only', async () => {
    for (const key of ALL_PATHS) {
      await reset();
      await send('POST', '/collections/p/points/payload?wait=true', {
        payload: { y: 1 },
        key,
        points: [1, 2],
      });
    }
    await reset();
    await send('POST', '/collections/p/points/payload?wait=true', {
      payload: JSON.parse('{"__proto__":{"z":1},"constructor":null}'),
      key: 'a.__proto__',
      points: [1, 2],
    });
    const after = await payload();
    // biome-ignore lint/suspicious/noProto: reads a stored "__proto__" key back as data
    assert.deepEqual(after.a.__proto__, JSON.parse('{"x":4,"__proto__":{"z":1}}'));
    // A null value removes the key, here an own `constructor` that never existed inside a.__proto__.
    assert.equal(after.a.constructor, 'c');
  });

  test('set and overwrite with prototype keys at the top level store them as data', async () => {
    await reset();
    const top = JSON.parse('{"__proto__":{"n":1},"constructor":{"n":2},"prototype":null}');
    await send('POST', '/collections/p/points/payload?wait=true', { payload: top, points: [1, 2] });
    const merged = await payload();
    // biome-ignore lint/suspicious/noProto: reads a stored "__proto__" key back as data
    assert.deepEqual(merged.__proto__, { n: 1 });
    assert.deepEqual(merged.constructor, { n: 2 });
    assert.equal(Object.hasOwn(merged, 'prototype'), false);
    await send('PUT', '/collections/p/points/payload?wait=true', { payload: top, points: [1, 2] });
    assert.deepEqual(
      await payload(),
      JSON.parse('{"__proto__":{"n":1},"constructor":{"n":2},"prototype":null}'),
    );
    await send('POST', '/collections/p/points/payload/clear?wait=true', { points: [1, 2] });
    assert.deepEqual(await payload(), {});
  });

  test('with_payload include/exclude selectors with prototype paths', async () => {
    await reset();
    for (const path of ALL_PATHS) {
      for (const with_payload of [[path], { include: [path] }, { exclude: [path] }]) {
        await send('POST', '/collections/p/points', { ids: [1, 2], with_payload });
        await send('POST', '/collections/p/points/scroll', { with_payload });
        await send('POST', '/collections/p/points/search', { vector: [1, 0], with_payload });
      }
    }
    const include = await send('POST', '/collections/p/points', { ids: [1], with_payload: ['__proto__.x'] });
    assert.deepEqual(include.json.result[0].payload, JSON.parse('{"__proto__":{"x":1}}'));
    // An inherited name selects exactly what any other absent key would.
    for (const [inherited, other] of [
      ['tag.constructor', 'tag.other'],
      ['a.constructor', 'a.other'],
      ['__proto__', 'other'],
    ]) {
      const a = await send('POST', '/collections/p/points', { ids: [2], with_payload: [inherited] });
      const b = await send('POST', '/collections/p/points', { ids: [2], with_payload: [other] });
      assert.deepEqual(a.json.result, b.json.result, inherited);
    }
  });

  test('filters on prototype paths match stored own keys and nothing inherited', async () => {
    await reset();
    const count = async (filter: unknown) => {
      const reply = await send('POST', '/collections/p/points/count', { filter, exact: true });
      return reply.json?.result?.count;
    };
    for (const key of ALL_PATHS) {
      for (const condition of [
        { key, match: { value: 'x' } },
        { key, match: { any: ['x'] } },
        { key, match: { except: ['x'] } },
        { key, match: { text: 'x' } },
        { key, range: { gt: 0 } },
        { key, values_count: { gte: 1 } },
        { is_empty: { key } },
        { is_null: { key } },
        { nested: { key, filter: { must: [{ key: 'x', match: { value: 1 } }] } } },
        { nested: { key: 'list', filter: { must: [{ key, range: { gte: 0 } }] } } },
      ]) {
        await count({ must: [condition] });
        await count({ must_not: [condition] });
      }
    }
    assert.equal(await count({ must: [{ key: '__proto__.x', match: { value: 1 } }] }), 1);
    assert.equal(await count({ must: [{ key: 'tag.constructor', values_count: { gte: 1 } }] }), 0);
    assert.equal(await count({ must: [{ is_empty: { key: 'tag.constructor' } }] }), 2);
    assert.equal(await count({ must: [{ is_empty: { key: 'a.constructor' } }] }), 1);
    assert.equal(await count({ must: [{ is_null: { key: 'constructor' } }] }), 0);
    assert.equal(await count({ must: [{ key: 'constructor', values_count: { gte: 1 } }] }), 1);
    assert.equal(await count({ must: [{ key: 'constructor.name', match: { value: 'Object' } }] }), 0);
    assert.equal(await count({ must_not: [{ key: '__proto__', match: { value: 'x' } }] }), 2);
    assert.equal(await count({ must: [{ key: 'b.constructor', match: { text: 'Object' } }] }), 0);
    assert.equal(await count({ must: [{ key: 'list[].__proto__.x', match: { value: 5 } }] }), 1);
    assert.equal(
      await count({
        must: [{ nested: { key: 'list', filter: { must: [{ key: 'constructor', match: { value: 6 } }] } } }],
      }),
      1,
    );
  });

  test('payload indexes, order_by and collection info with prototype field names', async () => {
    await reset();
    for (const field_name of ALL_PATHS) {
      for (const field_schema of ['keyword', 'integer', 'text']) {
        await send('PUT', '/collections/p/index?wait=true', { field_name, field_schema });
      }
      await send('POST', '/collections/p/points/scroll', { order_by: field_name });
      await send('POST', '/collections/p/points/count', {
        filter: { must: [{ key: field_name, match: { text: 'x' } }] },
      });
    }
    const info = await send('GET', '/collections/p', undefined);
    assert.equal(info.status, 200);
    assert.ok(Object.hasOwn(info.json.result.payload_schema, '__proto__'), info.text);
    assert.ok(Object.hasOwn(info.json.result.payload_schema, 'constructor'), info.text);
    for (const field_name of ALL_PATHS) {
      await send('DELETE', `/collections/p/index/${encodeURIComponent(field_name)}?wait=true`, undefined);
    }
    assert.deepEqual((await send('GET', '/collections/p', undefined)).json.result.payload_schema, {});
  });
});

describe('prototype names as vector names', () => {
  let app: TestApp;
  before(async () => {
    app = await openTestApp();
  });
  after(() => app.close());

  test('dense and sparse vectors named __proto__ or constructor are stored, searched and returned by name', async () => {
    const create = await app.send(
      'PUT',
      '/collections/v',
      JSON.parse(
        '{"vectors":{"__proto__":{"size":2,"distance":"Dot"},"constructor":{"size":2,"distance":"Dot"}},' +
          '"sparse_vectors":{"prototype":{},"toString":{}}}',
      ),
    );
    assert.equal(create.status, 200, create.text);
    const info = await app.send('GET', '/collections/v');
    const params = info.json.result.config.params;
    assert.deepEqual(Object.keys(params.vectors).sort(), ['__proto__', 'constructor']);
    assert.deepEqual(Object.keys(params.sparse_vectors).sort(), ['prototype', 'toString']);

    const upsert = await app.send(
      'PUT',
      '/collections/v/points?wait=true',
      JSON.parse(
        '{"points":[{"id":1,"vector":{"__proto__":[1,0],"constructor":[0,1],' +
          '"toString":{"indices":[7],"values":[2]}}}]}',
      ),
    );
    assert.equal(upsert.status, 200, upsert.text);
    const point = await app.send('GET', '/collections/v/points/1');
    assert.deepEqual(Object.keys(point.json.result.vector).sort(), ['__proto__', 'constructor', 'toString']);
    assert.deepEqual(Object.getOwnPropertyDescriptor(point.json.result.vector, '__proto__')?.value, [1, 0]);
    const hits = await app.send('POST', '/collections/v/points/query', {
      query: [1, 0],
      using: '__proto__',
    });
    assert.equal(hits.status, 200, hits.text);
    assert.equal(hits.json.result.points[0].id, 1);
    assertPristine();
  });

  test('a dense vector named like an inherited property is no duplicate of a sparse one', async () => {
    const create = await app.send('PUT', '/collections/w', {
      vectors: { constructor: { size: 2, distance: 'Dot' }, hasOwnProperty: { size: 2, distance: 'Dot' } },
      sparse_vectors: {},
    });
    assert.equal(create.status, 200, create.text);
  });
});
