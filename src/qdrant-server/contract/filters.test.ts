/** @module Contract: the filter language, evaluated over scroll and count (qdrant-subset.md §4.1-§4.3). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, expectOk } from './expect-envelope.js';
import { seedCollection } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

const v = [1, 0, 0, 0];

describe('filters', () => {
  let target: ContractTarget;
  let name: string;
  let empties: string;
  let serverVersion: [number, number];
  before(async () => {
    target = await openTarget();
    const root = await target.http('GET', '/');
    serverVersion = String(root.json.version).split('.').map(Number).slice(0, 2) as [number, number];
    name = await seedCollection(target, 'filt', [
      {
        id: 1,
        vector: v,
        payload: {
          city: 'Berlin',
          count: 5,
          tags: ['a', 'b'],
          price: 10.5,
          flag: true,
          date: '2024-01-15T10:00:00Z',
          items: [
            { name: 'x', qty: 1 },
            { name: 'y', qty: 5 },
          ],
        },
      },
      {
        id: 2,
        vector: v,
        payload: {
          city: 'London',
          count: 7,
          tags: ['b', 'c'],
          price: 20,
          flag: false,
          date: '2024-02-01',
          items: [{ name: 'x', qty: 5 }],
        },
      },
      {
        id: 3,
        vector: v,
        payload: {
          city: ['Berlin', 'Moscow'],
          count: '5',
          tags: [],
          price: 30,
          date: '2024-03-01 12:30:00',
          nested: { a: { b: 1 } },
        },
      },
      {
        id: 4,
        vector: v,
        payload: {
          city: 'berlin',
          count: 5.5,
          tags: ['a'],
          flag: 'true',
          date: 'not a date',
          text: 'Hello World',
        },
      },
      { id: 5, vector: v, payload: { count: 3 } },
      { id: 6, vector: v },
      { id: 10, vector: v, payload: { city: { name: 'Berlin' } } },
    ]);
    // The is_empty / is_null table of §4.3, with the doc's ids 5-8.
    empties = await seedCollection(target, 'filt_empty', [
      { id: 1, vector: v, payload: { city: 'Berlin' } },
      { id: 2, vector: v, payload: { city: ['Tokyo'] } },
      { id: 5, vector: v, payload: { other: 1 } },
      { id: 6, vector: v },
      { id: 7, vector: v, payload: { city: null } },
      { id: 8, vector: v, payload: { city: [] } },
      { id: 9, vector: v, payload: { city: [null] } },
    ]);
  });
  after(() => target.close());

  /** The ids a filter selects, read with scroll and cross-checked with count. */
  async function idsFor(filter: unknown, collection = name): Promise<unknown[]> {
    const page = expectOk(
      await target.http('POST', `/collections/${collection}/points/scroll`, {
        filter,
        limit: 100,
        with_payload: false,
      }),
    );
    const ids = page.points.map((p: { id: unknown }) => p.id);
    const counted = expectOk(
      await target.http('POST', `/collections/${collection}/points/count`, { filter, exact: true }),
    );
    assert.equal(counted.count, ids.length, `count disagrees with scroll for ${JSON.stringify(filter)}`);
    return ids;
  }
  const field = (key: string, condition: object) => ({ must: [{ key, ...condition }] });

  test('clause structure: {}, empty lists, single objects and null (§4.1)', async () => {
    const all = [1, 2, 3, 4, 5, 6, 10];
    assert.deepEqual(await idsFor({}), all);
    assert.deepEqual(await idsFor({ must: [] }), all);
    assert.deepEqual(await idsFor({ must_not: [] }), all);
    assert.deepEqual(await idsFor({ must: null }), all);
    assert.deepEqual(await idsFor({ should: [] }), []);
    assert.deepEqual(await idsFor({ must: { key: 'city', match: { value: 'London' } } }), [2]);
    assert.deepEqual(
      await idsFor({ must_not: { key: 'city', match: { value: 'London' } } }),
      [1, 3, 4, 5, 6, 10],
    );
  });

  test('must, should and must_not combine with AND; nested filters nest (§4.1)', async () => {
    const combined = {
      must: [{ key: 'price', range: { gte: 10 } }],
      should: [
        { key: 'city', match: { value: 'London' } },
        { key: 'city', match: { value: 'Moscow' } },
      ],
      must_not: [{ has_id: [3] }],
    };
    assert.deepEqual(await idsFor(combined), [2]);
    const nested = {
      should: [
        {
          must: [
            { key: 'city', match: { value: 'Berlin' } },
            { key: 'count', match: { value: 5 } },
          ],
        },
        { has_id: [5] },
      ],
    };
    assert.deepEqual(await idsFor(nested), [1, 5]);
  });

  test('min_should needs min_count of its conditions (§4.1)', async () => {
    const conditions = [
      { key: 'city', match: { value: 'Berlin' } },
      { key: 'count', match: { value: 5 } },
      { key: 'flag', match: { value: true } },
    ];
    assert.deepEqual(await idsFor({ min_should: { conditions, min_count: 2 } }), [1]);
    assert.deepEqual(await idsFor({ min_should: { conditions, min_count: 1 } }), [1, 3]);
    assert.deepEqual(await idsFor({ min_should: { conditions, min_count: 4 } }), []);
    if (serverVersion[0] > 1 || serverVersion[1] >= 19) {
      const zero = await target.http('POST', `/collections/${name}/points/scroll`, {
        filter: { min_should: { conditions, min_count: 0 } },
      });
      expectError(zero, 422, /min_count must be greater than 0/);
    }
  });

  test('match.value is strict in type and case, and looks one level into arrays (§4.3)', async () => {
    assert.deepEqual(await idsFor(field('city', { match: { value: 'Berlin' } })), [1, 3]);
    assert.deepEqual(await idsFor(field('count', { match: { value: 5 } })), [1]);
    assert.deepEqual(await idsFor(field('count', { match: { value: '5' } })), [3]);
    assert.deepEqual(await idsFor(field('flag', { match: { value: true } })), [1]);
    assert.deepEqual(await idsFor(field('tags', { match: { value: 'b' } })), [1, 2]);
  });

  test('match.any matches any listed value; an empty list matches nothing (§4.3)', async () => {
    assert.deepEqual(await idsFor(field('city', { match: { any: ['London', 'Moscow'] } })), [2, 3]);
    assert.deepEqual(await idsFor(field('count', { match: { any: [3, 7] } })), [2, 5]);
    assert.deepEqual(await idsFor(field('city', { match: { any: [] } })), []);
  });

  test('match.except: any value outside the list; missing and null never match (§4.3)', async () => {
    assert.deepEqual(await idsFor(field('city', { match: { except: ['Berlin'] } })), [2, 3, 4, 10]);
    assert.deepEqual(await idsFor(field('city', { match: { except: [] } })), [1, 2, 3, 4, 10]);
    assert.deepEqual(await idsFor(field('city', { match: { except: [1] } })), [1, 2, 3, 4, 10]);
    const everyCity = ['Berlin', 'Moscow', 'London', 'berlin'];
    assert.deepEqual(await idsFor(field('city', { match: { except: everyCity } })), [10]);
    assert.deepEqual(await idsFor(field('city', { match: { except: [] } }), empties), [1, 2]);
  });

  test('match.text without an index is a case-sensitive substring test on strings (§4.3)', async () => {
    assert.deepEqual(await idsFor(field('city', { match: { text: 'erlin' } })), [1, 3, 4]);
    assert.deepEqual(await idsFor(field('city', { match: { text: 'Berlin' } })), [1, 3]);
    assert.deepEqual(await idsFor(field('city', { match: { text: '' } })), [1, 2, 3, 4]);
    assert.deepEqual(await idsFor(field('text', { match: { text: 'lo Wo' } })), [4]);
    assert.deepEqual(await idsFor(field('text', { match: { text: 'hello' } })), []);
    assert.deepEqual(await idsFor(field('city', { match: { text_any: 'xyz Mosc' } })), [3]);
  });

  test('numeric range compares numbers only (§4.3)', async () => {
    assert.deepEqual(await idsFor(field('count', { range: { gt: 3, lte: 7 } })), [1, 2, 4]);
    assert.deepEqual(await idsFor(field('price', { range: { gte: 20 } })), [2, 3]);
    assert.deepEqual(await idsFor(field('price', { range: { gte: 20, lt: null } })), [2, 3]);
  });

  test('a string bound makes a datetime range; zoneless values are UTC (§4.3)', async () => {
    assert.deepEqual(
      await idsFor(field('date', { range: { gte: '2024-01-20', lte: '2024-03-01T12:30:00Z' } })),
      [2, 3],
    );
    assert.deepEqual(
      await idsFor(field('date', { range: { gte: '2024-01-20', lt: '2024-03-01T12:30:00Z' } })),
      [2],
    );
    assert.deepEqual(
      await idsFor(field('date', { range: { gt: '2024-01-15T11:00:00+02:00', lt: '2024-01-16 00:00' } })),
      [1],
    );
    const bad = await target.http('POST', `/collections/${name}/points/scroll`, {
      filter: field('date', { range: { gte: '20150201' } }),
    });
    expectError(
      bad,
      400,
      /'20150201' does not match accepted datetime format \(RFC3339\)\. Example: 2014-01-01T00:00:00Z/,
    );
  });

  test('is_empty and is_null follow the table, with ids 5-8 as in the doc (§4.3)', async () => {
    assert.deepEqual(await idsFor({ must: [{ is_empty: { key: 'city' } }] }, empties), [5, 6, 7, 8]);
    assert.deepEqual(await idsFor(field('city', { is_empty: true }), empties), [5, 6, 7, 8]);
    assert.deepEqual(await idsFor(field('city', { is_empty: false }), empties), [1, 2, 9]);
    assert.deepEqual(await idsFor({ must: [{ is_null: { key: 'city' } }] }, empties), [7]);
    assert.deepEqual(await idsFor({ must_not: [{ is_null: { key: 'city' } }] }, empties), [1, 2, 5, 6, 8, 9]);
    assert.deepEqual(await idsFor(field('city', { is_null: true }), empties), [7, 9]);
    assert.deepEqual(await idsFor(field('city', { is_null: false }), empties), [1, 2, 5, 6, 8]);
  });

  test('values_count counts array elements; a scalar or object counts 1 (§4.3)', async () => {
    assert.deepEqual(await idsFor(field('tags', { values_count: { gte: 2 } })), [1, 2]);
    assert.deepEqual(await idsFor(field('tags', { values_count: { gte: 1, lte: 1 } })), [4]);
    assert.deepEqual(await idsFor(field('city', { values_count: { gt: 1 } })), [3]);
    const missingCountsZero = serverVersion[0] > 1 || serverVersion[1] >= 19;
    const lessThanOne = await idsFor(field('tags', { values_count: { lt: 1 } }));
    assert.deepEqual(lessThanOne, missingCountsZero ? [3, 5, 6, 10] : [3]);
  });

  test('has_id selects ids, UUIDs by value; an empty list matches nothing (§4.3)', async () => {
    assert.deepEqual(await idsFor({ must: [{ has_id: [2, 4, 99] }] }), [2, 4]);
    assert.deepEqual(await idsFor({ must: [{ has_id: [] }] }), []);
    const uuid = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
    const withUuid = await seedCollection(target, 'filt_uuid', [
      { id: uuid, vector: v },
      { id: 1, vector: v },
    ]);
    assert.deepEqual(
      await idsFor({ must: [{ has_id: [uuid.toUpperCase().replaceAll('-', '')] }] }, withUuid),
      [uuid],
    );
  });

  test('nested needs one array element to satisfy the whole inner filter; a.b does not enter arrays (§4.2, §4.3)', async () => {
    const inner = {
      must: [
        { key: 'name', match: { value: 'x' } },
        { key: 'qty', range: { gte: 5 } },
      ],
    };
    assert.deepEqual(await idsFor({ must: [{ nested: { key: 'items', filter: inner } }] }), [2]);
    assert.deepEqual(await idsFor({ must: [{ nested: { key: 'items[]', filter: inner } }] }), [2]);
    const flat = {
      must: [
        { key: 'items[].name', match: { value: 'x' } },
        { key: 'items[].qty', range: { gte: 5 } },
      ],
    };
    assert.deepEqual(await idsFor(flat), [1, 2]);
    assert.deepEqual(await idsFor(field('items.name', { match: { value: 'x' } })), []);
    assert.deepEqual(await idsFor(field('items[0].qty', { match: { value: 1 } })), [1]);
    assert.deepEqual(await idsFor(field('nested.a.b', { match: { value: 1 } })), [3]);
    const hasIdInside = { nested: { key: 'items', filter: { must: [{ has_id: [1, 2] }] } } };
    assert.deepEqual(await idsFor({ must: [hasIdInside] }), []);
  });

  test('a field condition with several kinds passes when any passes (§4.1)', async () => {
    assert.deepEqual(await idsFor(field('count', { match: { value: 7 }, range: { lt: 4 } })), [2, 5]);
  });

  test('malformed filters are rejected (§0.2, §4.1, §4.2, §4.3)', async () => {
    const scroll = (filter: unknown) =>
      target.http('POST', `/collections/${name}/points/scroll`, { filter, with_payload: false });
    expectError(
      await scroll({ must: [{ key: 'city' }] }),
      422,
      /Validation error in JSON body.*At least one field condition must be specified/s,
    );
    expectError(await scroll({ must: [], unknown: 1 }), 400, /^Format error in JSON body: /);
    expectError(await scroll(field('count', { match: { value: 5.5 } })), 400, /./);
    expectError(await scroll(field('city', { match: { any: ['a', 1] } })), 400, /./);
    expectError(
      await scroll({ must: [{ key: 5, match: { value: 1 } }] }),
      400,
      /Filter condition 'key' must be a string/,
    );
    expectError(await scroll(field('my key', { match: { value: 1 } })), 400, /Invalid json path/);
  });
});
