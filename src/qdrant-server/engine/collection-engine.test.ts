import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createTestCollection, filter, openTestStore, plainJson, read } from './engine-test-kit.js';

function close(actual: readonly number[] | undefined, expected: readonly number[], tolerance = 1e-6): void {
  assert.ok(actual !== undefined, 'vector missing');
  assert.equal(actual.length, expected.length);
  actual.forEach((value, i) => {
    assert.ok(Math.abs(value - (expected[i] as number)) <= tolerance, `${value} vs ${expected[i]}`);
  });
}

describe('collection writes', () => {
  test('Cosine vectors are normalized at upsert; Dot vectors keep their f32 values', async () => {
    const { store } = openTestStore();
    const cosine = createTestCollection(store, 'cos', 4, 'Cosine');
    cosine.upsert([{ id: 1, vector: [2, 6, 7, 8], payload: {} }]);
    close(
      cosine.retrieve([1], read(false, true))[0]?.vector as number[],
      [0.16169041, 0.48507124, 0.5659165, 0.64676166],
    );
    const dot = createTestCollection(store, 'dot', 2, 'Dot');
    dot.upsert([{ id: 1, vector: [0.31, 2], payload: {} }]);
    assert.deepEqual(dot.retrieve([1], read(false, true))[0]?.vector, [Math.fround(0.31), 2]);
  });

  test('upsert replaces the whole point, last duplicate wins, operation ids rise', async () => {
    const { store } = openTestStore();
    const c = createTestCollection(store, 'c', 2, 'Dot');
    assert.equal(c.upsert([{ id: 1, vector: [1, 1], payload: { a: 1, b: 2 } }]).operationId, 0);
    const second = c.upsert([
      { id: 1, vector: [2, 2], payload: { a: 9 } },
      { id: 1, vector: [3, 3], payload: { c: 3 } },
    ]);
    assert.equal(second.operationId, 1);
    assert.deepEqual(plainJson(c.retrieve([1], read(true, true))), [
      { id: 1, payload: { c: 3 }, vector: [3, 3] },
    ]);
    assert.equal(c.count(), 1);
  });

  test('rejects a wrong dimension and vectors on a collection without vectors', async () => {
    const { store } = openTestStore();
    const c = createTestCollection(store, 'c', 4, 'Cosine');
    assert.throws(() => c.upsert([{ id: 1, vector: [1, 2, 3], payload: {} }]), {
      status: 400,
      message: 'Wrong input: Vector dimension error: expected dim: 4, got 3',
    });
    assert.equal(c.count(), 0);
    store.createCollection('bare', { vectors: null, settings: {} });
    const bare = store.collection('bare');
    assert.throws(() => bare.upsert([{ id: 1, vector: [1], payload: {} }]), {
      message: 'Wrong input: Not existing vector name error: ',
    });
    bare.upsert([{ id: 1, vector: null, payload: { x: 1 } }]);
    assert.equal(bare.info().points_count, 1);
  });

  test('retrieve keeps request order, drops duplicates and missing ids', async () => {
    const { store } = openTestStore();
    const c = createTestCollection(store, 'c', 2, 'Dot');
    c.upsert([1, 2, 3].map((id) => ({ id, vector: [id, 0], payload: {} })));
    assert.deepEqual(
      c.retrieve([3, 99, 1, 3], read()).map((r) => r.id),
      [3, 1],
    );
  });

  test('deletes by ids (missing ignored) and by filter', async () => {
    const { store } = openTestStore();
    const c = createTestCollection(store, 'c', 2, 'Dot');
    c.upsert([1, 2, 3, 4].map((id) => ({ id, vector: [id, 0], payload: { even: id % 2 === 0 } })));
    assert.deepEqual(c.deletePoints({ ids: [1, 77] }).missingIds, []);
    c.deletePoints({ filter: filter({ must: [{ key: 'even', match: { value: true } }] }) });
    assert.deepEqual(
      (await c.scroll({ ...read(), limit: 10 })).points.map((p) => p.id),
      [3],
    );
    // The vector slots were compacted correctly: search still finds the survivor with its own vector.
    const [hit] = await c.search({ ...read(false, true), vector: [1, 0], limit: 5, offset: 0 });
    assert.deepEqual(hit?.vector, [3, 0]);
  });

  test('payload set, overwrite, delete keys and clear, by ids and filter, report missing ids', async () => {
    const { store } = openTestStore();
    const c = createTestCollection(store, 'c', 2, 'Dot');
    c.upsert([
      { id: 1, vector: [1, 0], payload: { a: { x: 1 }, b: 1 } },
      { id: 2, vector: [0, 1], payload: { b: 2 } },
    ]);
    const set = c.setPayload({ ids: [1, 999] }, { a: { y: 1 }, b: null, c: 'new' });
    assert.deepEqual(set.missingIds, [999]);
    assert.deepEqual(plainJson(c.retrieve([1], read(true))[0]?.payload), { a: { y: 1 }, c: 'new' });
    c.setPayload({ ids: [1] }, { z: 1 }, 'a');
    assert.deepEqual(plainJson(c.retrieve([1], read(true))[0]?.payload), { a: { y: 1, z: 1 }, c: 'new' });
    c.overwritePayload({ filter: filter({ must: [{ key: 'b', match: { value: 2 } }] }) }, { only: true });
    assert.deepEqual(plainJson(c.retrieve([2], read(true))[0]?.payload), { only: true });
    c.deletePayloadKeys({ ids: [1] }, ['a.y', 'c']);
    assert.deepEqual(plainJson(c.retrieve([1], read(true))[0]?.payload), { a: { z: 1 } });
    const cleared = c.clearPayload({ ids: [2, 3] });
    assert.deepEqual(cleared.missingIds, [3]);
    assert.deepEqual(plainJson(c.retrieve([2], read(true))[0]?.payload), {});
    // Payload writes are operations: the point's version follows them.
    const [hit] = await c.search({ ...read(), vector: [0, 1], limit: 1, offset: 0 });
    assert.equal(hit?.version, cleared.operationId);
  });

  test('payload indexes: idempotent create, delete, schema with point counts and params', async () => {
    const { store } = openTestStore();
    const c = createTestCollection(store, 'c', 2, 'Dot');
    c.upsert([
      { id: 1, vector: [1, 0], payload: { tag: 'a', n: 1, t: 'hello world' } },
      { id: 2, vector: [0, 1], payload: { tag: ['b', 'c'], n: 1.5 } },
      { id: 3, vector: null, payload: { tag: 5, n: 'x' } },
    ]);
    c.createIndex('tag', { type: 'keyword' });
    c.createIndex('tag', { type: 'keyword' });
    c.createIndex('n', { type: 'integer' });
    c.createIndex('f', { type: 'float' });
    c.createIndex('t', { type: 'text', params: { type: 'text', tokenizer: 'word' } });
    assert.deepEqual(plainJson(c.info().payload_schema), {
      tag: { data_type: 'keyword', points: 2 },
      n: { data_type: 'integer', points: 1 },
      f: { data_type: 'float', points: 0 },
      t: { data_type: 'text', params: { type: 'text', tokenizer: 'word' }, points: 1 },
    });
    c.deleteIndex('f');
    assert.deepEqual(Object.keys(c.info().payload_schema as object), ['tag', 'n', 't']);
  });

  test('a text index switches match.text to token semantics', async () => {
    const { store } = openTestStore();
    const c = createTestCollection(store, 'c', 2, 'Dot');
    c.upsert([{ id: 1, vector: [1, 0], payload: { ids: 'Alice_1700000000000_5,Alice_1700000000001_6' } }]);
    const byText = filter({ must: [{ key: 'ids', match: { text: 'ALICE 5' } }] });
    assert.equal(c.count(byText), 0);
    c.createIndex('ids', { type: 'text', params: { type: 'text', tokenizer: 'word' } });
    assert.equal(c.count(byText), 1);
  });

  test("info has Qdrant's CollectionInfo shape with echoed vector extras and settings", async () => {
    const { store } = openTestStore();
    store.createCollection('c', {
      vectors: { size: 3, distance: 'Euclid', extras: { on_disk: true } },
      settings: { hnsw_config: { m: 32 } },
    });
    const info = store.collection('c').info() as {
      status: string;
      points_count: number;
      indexed_vectors_count: number;
      config: {
        params: { vectors: unknown };
        hnsw_config: Record<string, unknown>;
        wal_config: Record<string, unknown>;
      };
      update_queue: unknown;
    };
    assert.equal(info.status, 'green');
    assert.equal(info.points_count, 0);
    assert.equal(info.indexed_vectors_count, 0);
    assert.deepEqual(info.config.params.vectors, { size: 3, distance: 'Euclid', on_disk: true });
    assert.equal(info.config.hnsw_config.m, 32);
    assert.equal(info.config.hnsw_config.ef_construct, 100);
    assert.equal(info.config.wal_config.wal_capacity_mb, 32);
    assert.deepEqual(info.update_queue, { length: 0 });
  });
});
