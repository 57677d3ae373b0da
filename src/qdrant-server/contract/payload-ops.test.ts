/** @module Contract: set, overwrite, delete-keys and clear payload (qdrant-subset.md §2 payload operations). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectClientError, expectError, expectOk } from './expect-envelope.js';
import { eventually, seedCollection } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

const v = [1, 0, 0, 0];

describe('payload-ops', () => {
  let target: ContractTarget;
  before(async () => {
    target = await openTarget();
  });
  after(() => target.close());

  async function payloadOf(name: string, id: number) {
    return expectOk(await target.http('GET', `/collections/${name}/points/${id}`)).payload;
  }

  test('set merges top-level keys shallowly and null removes a key (§2)', async () => {
    const name = await seedCollection(target, 'pl_set', [
      { id: 1, vector: v, payload: { a: { x: 1 }, b: 1, c: 'keep' } },
    ]);
    const reply = await target.http('POST', `/collections/${name}/points/payload?wait=true`, {
      payload: { a: { y: 1 }, b: null, d: [1, 2] },
      points: [1],
    });
    assert.equal(expectOk(reply).status, 'completed');
    assert.deepEqual(await payloadOf(name, 1), { a: { y: 1 }, c: 'keep', d: [1, 2] });
  });

  test('set with a key merges into the object at that path, creating it (§2)', async () => {
    const name = await seedCollection(target, 'pl_key', [
      { id: 1, vector: v },
      { id: 2, vector: v, payload: { p: { q: { z: 0 } }, other: 1 } },
      { id: 3, vector: v, payload: { arr: [{ a: 1 }, { b: 2 }] } },
    ]);
    const set = (body: object) => target.http('POST', `/collections/${name}/points/payload?wait=true`, body);
    expectOk(await set({ payload: { c: 1 }, points: [1, 2], key: 'p.q' }));
    assert.deepEqual(await payloadOf(name, 1), { p: { q: { c: 1 } } });
    assert.deepEqual(await payloadOf(name, 2), { p: { q: { z: 0, c: 1 } }, other: 1 });
    expectOk(await set({ payload: { n: 1 }, points: [3], key: 'arr[0]' }));
    assert.deepEqual(await payloadOf(name, 3), { arr: [{ a: 1, n: 1 }, { b: 2 }] });
  });

  test('set by filter touches every match; ids win over a filter when both are given (§2, §4.5)', async () => {
    const points = [1, 2, 3, 4].map((id) => ({
      id,
      vector: v,
      payload: { group: id <= 2 ? 'low' : 'high' },
    }));
    const name = await seedCollection(target, 'pl_filter', points);
    const filter = { must: [{ key: 'group', match: { value: 'low' } }] };
    await target.client.setPayload(name, { payload: { hit: true }, filter });
    assert.deepEqual(
      (
        await target.client.scroll(name, { filter: { must: [{ key: 'hit', match: { value: true } }] } })
      ).points.map((p) => p.id),
      [1, 2],
    );
    expectOk(
      await target.http('POST', `/collections/${name}/points/payload?wait=true`, {
        payload: { both: 1 },
        points: [4],
        filter,
      }),
    );
    assert.deepEqual(await payloadOf(name, 4), { group: 'high', both: 1 });
    assert.deepEqual(await payloadOf(name, 1), { group: 'low', hit: true });
  });

  test('overwrite replaces the whole payload (§2)', async () => {
    const name = await seedCollection(target, 'pl_over', [{ id: 1, vector: v, payload: { a: 1, b: 2 } }]);
    const reply = await target.http('PUT', `/collections/${name}/points/payload?wait=true`, {
      payload: { c: 3 },
      points: [1],
    });
    assert.equal(expectOk(reply).status, 'completed');
    assert.deepEqual(await payloadOf(name, 1), { c: 3 });
    await target.client.overwritePayload(name, { payload: { d: 4 }, points: [1] });
    assert.deepEqual(await payloadOf(name, 1), { d: 4 });
  });

  test('delete removes the listed key paths; absent keys are fine (§2)', async () => {
    const name = await seedCollection(target, 'pl_del', [
      { id: 1, vector: v, payload: { a: 1, b: 2, p: { q: 1, r: 2 } } },
    ]);
    const body = { keys: ['a', 'p.q', 'missing'], points: [1] };
    expectOk(await target.http('POST', `/collections/${name}/points/payload/delete?wait=true`, body));
    assert.deepEqual(await payloadOf(name, 1), { b: 2, p: { r: 2 } });
    await target.client.deletePayload(name, { keys: ['b'], points: [1] });
    assert.deepEqual(await payloadOf(name, 1), { p: { r: 2 } });
  });

  test('clear empties the payload by ids or by filter, keeping the point (§2)', async () => {
    const points = [1, 2, 3].map((id) => ({ id, vector: v, payload: { id } }));
    const name = await seedCollection(target, 'pl_clear', points);
    expectOk(
      await target.http('POST', `/collections/${name}/points/payload/clear?wait=true`, { points: [1] }),
    );
    assert.deepEqual(await payloadOf(name, 1), {});
    await target.client.clearPayload(name, { filter: { must: [{ key: 'id', range: { gte: 3 } }] } });
    assert.deepEqual(await payloadOf(name, 3), {});
    assert.deepEqual(await payloadOf(name, 2), { id: 2 });
    assert.equal((await target.client.count(name)).count, 3);
  });

  test('explicit missing ids with wait=true are 404, and the existing ids are still changed (§0.2)', async () => {
    const points = [1, 2, 3, 4].map((id) => ({ id, vector: v, payload: { a: 1, b: 2 } }));
    const name = await seedCollection(target, 'pl_missing', points);
    const base = `/collections/${name}/points/payload`;
    const message = 'Not found: No point with id 999 found';
    expectError(
      await target.http('POST', `${base}?wait=true`, { payload: { set: 1 }, points: [1, 999] }),
      404,
      message,
    );
    expectError(
      await target.http('PUT', `${base}?wait=true`, { payload: { over: 1 }, points: [2, 999] }),
      404,
      message,
    );
    expectError(
      await target.http('POST', `${base}/delete?wait=true`, { keys: ['a'], points: [3, 999] }),
      404,
      message,
    );
    expectError(await target.http('POST', `${base}/clear?wait=true`, { points: [4, 999] }), 404, message);
    assert.deepEqual(await payloadOf(name, 1), { a: 1, b: 2, set: 1 });
    assert.deepEqual(await payloadOf(name, 2), { over: 1 });
    assert.deepEqual(await payloadOf(name, 3), { b: 2 });
    assert.deepEqual(await payloadOf(name, 4), {});
    await expectClientError(
      target.client.setPayload(name, { payload: { x: 1 }, points: [999] }),
      404,
      message,
    );
  });

  test('missing ids without wait are acknowledged, and filter forms never fail on a miss (§2)', async () => {
    const name = await seedCollection(target, 'pl_nowait', [{ id: 1, vector: v, payload: { a: 1 } }]);
    const reply = await target.http('POST', `/collections/${name}/points/payload`, {
      payload: { b: 1 },
      points: [1, 999],
    });
    assert.equal(expectOk(reply).status, 'acknowledged');
    await eventually(async () => assert.deepEqual(await payloadOf(name, 1), { a: 1, b: 1 }));
    const filter = { must: [{ key: 'a', match: { value: 42 } }] };
    const none = await target.http('POST', `/collections/${name}/points/payload?wait=true`, {
      payload: { c: 1 },
      filter,
    });
    assert.equal(expectOk(none).status, 'completed');
  });

  test('a payload operation without points or filter is 400 (§2)', async () => {
    const name = await seedCollection(target, 'pl_noselect', [{ id: 1, vector: v }]);
    const reply = await target.http('POST', `/collections/${name}/points/payload?wait=true`, {
      payload: { a: 1 },
    });
    expectError(reply, 400, /Either list of point ids or filter must be provided/);
  });
});
