/** @module Contract: retrieve, GET point, scroll (with and without order_by) and count (qdrant-subset.md §3). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, expectOk } from './expect-envelope.js';
import { seedCollection } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

describe('points-read', () => {
  let target: ContractTarget;
  let name: string;
  const uuidA = '00000000-0000-4000-8000-000000000001';
  const uuidB = 'ffffffff-0000-4000-8000-000000000001';
  before(async () => {
    target = await openTarget();
    name = await seedCollection(
      target,
      'read',
      [
        { id: uuidB, vector: [1, 1, 1, 1], payload: { n: 100 } },
        ...[7, 1, 5, 3, 2, 6, 4].map((id) => ({
          id,
          vector: [1, id, 0, 0],
          payload: {
            n: id * 10,
            tag: id % 2 === 0 ? 'even' : 'odd',
            country: { name: 'x', cities: [{ name: 'a', pop: id }] },
          },
        })),
        { id: uuidA, vector: [0, 0, 0, 1] },
      ],
      4,
      'Dot',
    );
  });
  after(() => target.close());

  async function retrieve(body: object) {
    return expectOk(await target.http('POST', `/collections/${name}/points`, body));
  }

  test('retrieve defaults to neither payload nor vector (§3 read defaults)', async () => {
    assert.deepEqual(await retrieve({ ids: [1] }), [{ id: 1 }]);
    assert.deepEqual(await retrieve({ ids: [1], with_payload: true, with_vectors: true }), [
      {
        id: 1,
        payload: { n: 10, tag: 'odd', country: { name: 'x', cities: [{ name: 'a', pop: 1 }] } },
        vector: [1, 1, 0, 0],
      },
    ]);
  });

  test('retrieve keeps request order, drops duplicates and skips missing ids (§3)', async () => {
    const found = await retrieve({ ids: [3, 1, 99, uuidA, 3] });
    assert.deepEqual(
      found.map((p: { id: unknown }) => p.id),
      [3, 1, uuidA],
    );
    assert.deepEqual(await retrieve({ ids: [] }), []);
    const viaClient = await target.client.retrieve(name, { ids: [5] });
    assert.equal(viaClient[0]?.payload?.n, 50);
  });

  test('with_payload selects with a list, include, exclude and array paths (§3)', async () => {
    const [a] = await retrieve({ ids: [2], with_payload: ['n', 'country.name'] });
    assert.deepEqual(a.payload, { n: 20, country: { name: 'x' } });
    const [b] = await retrieve({ ids: [2], with_payload: { include: ['country.cities[].name'] } });
    assert.deepEqual(b.payload, { country: { cities: [{ name: 'a' }] } });
    const [c] = await retrieve({ ids: [2], with_payload: { exclude: ['country', 'tag'] } });
    assert.deepEqual(c.payload, { n: 20 });
    const [d] = await retrieve({ ids: [2], with_payload: [] });
    assert.deepEqual(d.payload, {});
    const [e] = await retrieve({ ids: [uuidA], with_payload: true });
    assert.deepEqual(e.payload, {});
  });

  test('GET point returns payload and vector; missing is 404, unparsable is 400 (§0.2)', async () => {
    assert.deepEqual(expectOk(await target.http('GET', `/collections/${name}/points/5`)), {
      id: 5,
      payload: { n: 50, tag: 'odd', country: { name: 'x', cities: [{ name: 'a', pop: 5 }] } },
      vector: [1, 5, 0, 0],
    });
    expectError(
      await target.http('GET', `/collections/${name}/points/70`),
      404,
      'Not found: Point with id 70 does not exists!',
    );
    expectError(
      await target.http('GET', `/collections/${name}/points/abc`),
      400,
      'Wrong input: Can not recognize "abc" as point id',
    );
  });

  test('scroll lists ascending ids, numbers before UUIDs, with payload and no vector (§3)', async () => {
    const page = expectOk(await target.http('POST', `/collections/${name}/points/scroll`, {}));
    assert.deepEqual(
      page.points.map((p: { id: unknown }) => p.id),
      [1, 2, 3, 4, 5, 6, 7, uuidA, uuidB],
    );
    assert.equal(page.next_page_offset, null);
    assert.deepEqual(page.points[0].payload.n, 10);
    assert.ok(!('vector' in page.points[0]));
    assert.deepEqual(page.points[7].payload, {});
  });

  test('scroll pages with an inclusive offset and next_page_offset (§3)', async () => {
    const scroll = async (body: object) =>
      expectOk(
        await target.http('POST', `/collections/${name}/points/scroll`, { with_payload: false, ...body }),
      );
    const first = await scroll({ limit: 3 });
    assert.deepEqual(first, { points: [{ id: 1 }, { id: 2 }, { id: 3 }], next_page_offset: 4 });
    const second = await scroll({ limit: 3, offset: 4 });
    assert.deepEqual(second, { points: [{ id: 4 }, { id: 5 }, { id: 6 }], next_page_offset: 7 });
    const last = await scroll({ limit: 3, offset: uuidA });
    assert.deepEqual(last, { points: [{ id: uuidA }, { id: uuidB }], next_page_offset: null });
    const exact = await scroll({ limit: 2, offset: 6 });
    assert.deepEqual(exact, { points: [{ id: 6 }, { id: 7 }], next_page_offset: uuidA });
  });

  test('scroll applies the filter before the limit and the client walks all pages (§4.5)', async () => {
    const page = await target.client.scroll(name, {
      filter: { must: [{ key: 'tag', match: { value: 'even' } }] },
      limit: 2,
      with_payload: false,
    });
    assert.deepEqual(page, { points: [{ id: 2 }, { id: 4 }], next_page_offset: 6 });
    const seen: unknown[] = [];
    let offset: string | number | null | undefined;
    do {
      const next = await target.client.scroll(name, {
        limit: 4,
        with_payload: false,
        ...(offset != null ? { offset } : {}),
      });
      seen.push(...next.points.map((p) => p.id));
      offset = next.next_page_offset as string | number | null;
    } while (offset != null);
    assert.deepEqual(seen, [1, 2, 3, 4, 5, 6, 7, uuidA, uuidB]);
  });

  test('count counts all points or the filtered ones (§3)', async () => {
    assert.deepEqual(expectOk(await target.http('POST', `/collections/${name}/points/count`, {})), {
      count: 9,
    });
    const filter = { must: [{ key: 'n', range: { gte: 30, lt: 70 } }] };
    assert.deepEqual(
      expectOk(await target.http('POST', `/collections/${name}/points/count`, { filter, exact: true })),
      {
        count: 4,
      },
    );
    assert.deepEqual(await target.client.count(name, { filter, exact: false }), { count: 4 });
  });
});

describe('points-read order_by', () => {
  let target: ContractTarget;
  let name: string;
  before(async () => {
    target = await openTarget();
    name = await seedCollection(target, 'orderby', [
      { id: 1, vector: [1, 0, 0, 0], payload: { rank: 30 } },
      { id: 2, vector: [1, 0, 0, 0], payload: { rank: 10 } },
      { id: 3, vector: [1, 0, 0, 0], payload: { rank: [20, 50] } },
      { id: 4, vector: [1, 0, 0, 0], payload: { other: 1 } },
      { id: 5, vector: [1, 0, 0, 0], payload: { rank: 40 } },
    ]);
  });
  after(() => target.close());

  async function scroll(body: object) {
    return target.http('POST', `/collections/${name}/points/scroll`, { with_payload: false, ...body });
  }

  test('order_by without a range index is 400 (§3 scroll)', async () => {
    expectError(
      await scroll({ order_by: 'rank' }),
      400,
      /^Wrong input: No range index for `order_by` key: `rank`\. Please create one to use `order_by`\./,
    );
  });

  test('order_by with an integer index sorts, repeats multi-values, skips missing keys (§3 scroll)', async () => {
    const index = { field_name: 'rank', field_schema: 'integer' };
    expectOk(await target.http('PUT', `/collections/${name}/index?wait=true`, index));
    const asc = expectOk(await scroll({ order_by: 'rank', limit: 10 }));
    assert.deepEqual(asc, {
      points: [
        { id: 2, order_value: 10 },
        { id: 3, order_value: 20 },
        { id: 1, order_value: 30 },
        { id: 5, order_value: 40 },
        { id: 3, order_value: 50 },
      ],
      next_page_offset: null,
    });
    const desc = expectOk(
      await scroll({ order_by: { key: 'rank', direction: 'desc', start_from: 30 }, limit: 2 }),
    );
    assert.deepEqual(desc, {
      points: [
        { id: 1, order_value: 30 },
        { id: 3, order_value: 20 },
      ],
      next_page_offset: null,
    });
    const viaClient = await target.client.scroll(name, {
      order_by: { key: 'rank', start_from: 35 },
      with_payload: false,
    });
    assert.deepEqual(
      viaClient.points.map((p) => p.id),
      [5, 3],
    );
  });

  test('offset together with order_by is 400 (§3 scroll)', async () => {
    expectError(
      await scroll({ order_by: 'rank', offset: 1 }),
      400,
      /Cannot use an `offset` when using `order_by`/,
    );
  });
});
