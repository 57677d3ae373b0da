import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CollectionEngine, ScrollRequest } from './engine-api.js';
import { createTestCollection, filter, openTestStore, read } from './engine-test-kit.js';

const UUID_A = '00000000-0000-4000-8000-00000000000a';
const UUID_B = 'ffffffff-0000-4000-8000-00000000000b';

function mixedIds(): CollectionEngine {
  const { store } = openTestStore();
  const c = createTestCollection(store, 's', 1, 'Dot');
  c.upsert(
    [UUID_B, 30, 2, UUID_A, 10, 1].map((id, i) => ({ id, vector: i === 2 ? null : [1], payload: { i } })),
  );
  return c;
}

function scroll(c: CollectionEngine, request: Partial<ScrollRequest>) {
  return c.scroll({ ...read(), limit: 10, ...request });
}

describe('scroll', () => {
  test('pages through numeric ids then UUIDs with an inclusive offset and next_page_offset', async () => {
    const c = mixedIds();
    const first = await scroll(c, { limit: 4 });
    assert.deepEqual(
      first.points.map((p) => p.id),
      [1, 2, 10, 30],
    );
    assert.equal(first.nextPageOffset, UUID_A);
    const second = await scroll(c, { limit: 4, offset: first.nextPageOffset ?? undefined });
    assert.deepEqual(
      second.points.map((p) => p.id),
      [UUID_A, UUID_B],
    );
    assert.equal(second.nextPageOffset, null);
    // An offset that is not an id starts at the next id.
    assert.deepEqual(
      (await scroll(c, { offset: 3, limit: 1 })).points.map((p) => p.id),
      [10],
    );
  });

  test('applies the filter before limit, and includes points without vectors', async () => {
    const c = mixedIds();
    const page = await scroll(c, { limit: 2, filter: filter({ must: [{ key: 'i', range: { gte: 2 } }] }) });
    assert.deepEqual(
      page.points.map((p) => p.id),
      [1, 2],
    );
    assert.equal(page.nextPageOffset, 10);
  });

  test('order_by needs a range index and refuses an offset', async () => {
    const c = mixedIds();
    await assert.rejects(() => scroll(c, { orderBy: { key: 'i', direction: 'asc' } }), {
      status: 400,
      message: /^Wrong input: No range index for `order_by` key: `i`\. Please create one to use `order_by`\./,
    });
    c.createIndex('i', { type: 'keyword' });
    await assert.rejects(() => scroll(c, { orderBy: { key: 'i', direction: 'asc' } }), /No range index/);
    c.createIndex('i', { type: 'integer' });
    await assert.rejects(() => scroll(c, { orderBy: { key: 'i', direction: 'asc' }, offset: 1 }), {
      message: /^Wrong input: Cannot use an `offset` when using `order_by`/,
    });
  });

  test('order_by sorts by value (ties by id), repeats multi-valued points, honors start_from', async () => {
    const { store } = openTestStore();
    const c = createTestCollection(store, 'o', 1, 'Dot');
    c.upsert([
      { id: 1, vector: [1], payload: { n: 5 } },
      { id: 2, vector: [1], payload: { n: [1, 7] } },
      { id: 3, vector: [1], payload: { n: 5 } },
      { id: 4, vector: [1], payload: {} },
    ]);
    c.createIndex('n', { type: 'integer' });
    const asc = await scroll(c, { orderBy: { key: 'n', direction: 'asc' } });
    assert.deepEqual(
      asc.points.map((p) => [p.id, p.order_value]),
      [
        [2, 1],
        [1, 5],
        [3, 5],
        [2, 7],
      ],
    );
    assert.equal(asc.nextPageOffset, null);
    const desc = await scroll(c, { orderBy: { key: 'n', direction: 'desc', startFrom: 5 }, limit: 2 });
    assert.deepEqual(
      desc.points.map((p) => [p.id, p.order_value]),
      [
        [3, 5],
        [1, 5],
      ],
    );
  });

  test('a small order_by page is exactly the head of the fully sorted order (kept as offered, not sorted)', async () => {
    const { store } = openTestStore();
    const c = createTestCollection(store, 'h', 1, 'Dot');
    // Few distinct values, so ties (broken by id) and multi-valued points abound.
    c.upsert(
      Array.from({ length: 3000 }, (_, i) => ({
        id: i + 1,
        vector: [1],
        payload: { n: i % 7 === 0 ? [(i * 13) % 50, (i * 31) % 50] : (i * 17) % 50 },
      })),
    );
    c.createIndex('n', { type: 'integer' });
    for (const direction of ['asc', 'desc'] as const) {
      // Above 1024 every value is sorted: the reference order.
      const all = (await scroll(c, { orderBy: { key: 'n', direction }, limit: 5000 })).points.map((p) => [
        p.id,
        p.order_value,
      ]);
      assert.equal(all.length, 3000 + 429);
      for (const limit of [0, 1, 7, 50, 1024]) {
        const page = (await scroll(c, { orderBy: { key: 'n', direction }, limit })).points.map((p) => [
          p.id,
          p.order_value,
        ]);
        assert.deepEqual(page, all.slice(0, limit), `${direction} ${limit}`);
      }
    }
  });

  test('order_by on a datetime index orders by instant', async () => {
    const { store } = openTestStore();
    const c = createTestCollection(store, 'd', 1, 'Dot');
    c.upsert([
      { id: 1, vector: [1], payload: { at: '2024-01-02T00:00:00Z' } },
      { id: 2, vector: [1], payload: { at: '2024-01-01T12:00:00+02:00' } },
      { id: 3, vector: [1], payload: { at: 'not a date' } },
    ]);
    c.createIndex('at', { type: 'datetime' });
    const page = await scroll(c, { orderBy: { key: 'at', direction: 'asc', startFrom: '2024-01-01' } });
    assert.deepEqual(
      page.points.map((p) => p.id),
      [2, 1],
    );
  });

  test('count counts every point, with or without a filter', async () => {
    const c = mixedIds();
    assert.equal(c.count(), 6);
    assert.equal(c.count(filter({ must: [{ key: 'i', range: { lt: 3 } }] })), 3);
  });
});
