/** @module Contract: `POST /points/batch`, write operations applied in order with one UpdateResult each (tests/openapi/test_batch_update.py). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, expectOk } from './expect-envelope.js';
import { createCollection } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

describe('batch update', () => {
  let target: ContractTarget;
  let name: string;
  const batch = (operations: unknown[]) =>
    target.http('POST', `/collections/${name}/points/batch?wait=true`, { operations });
  const records = async (ids: number[]) =>
    expectOk(
      await target.http('POST', `/collections/${name}/points`, {
        ids,
        with_payload: true,
        with_vector: true,
      }),
    );
  before(async () => {
    target = await openTarget();
    name = await createCollection(target, 'batch', 2, 'Dot');
  });
  after(() => target.close());

  test('operations apply in order, each answered with its own result', async () => {
    const results = expectOk(
      await batch([
        { upsert: { points: [{ id: 7, vector: [1, 2], payload: { a: 1 } }] } },
        {
          upsert: {
            batch: {
              ids: [8, 9],
              vectors: [
                [3, 4],
                [5, 6],
              ],
            },
          },
        },
        { delete: { points: [8] } },
        { set_payload: { points: [7], payload: { b: 2 } } },
        { delete_payload: { points: [7], keys: ['a'] } },
        { overwrite_payload: { points: [9], payload: { c: 3 } } },
        { update_vectors: { points: [{ id: 9, vector: [0.5, 0.25] }] } },
        { clear_payload: { points: [9] } },
      ]),
    );
    assert.equal(results.length, 8);
    for (const result of results) assert.equal(result.status, 'completed');
    const ops = results.map((r: { operation_id: number }) => r.operation_id);
    assert.deepEqual(
      ops,
      [...ops].sort((a, b) => a - b),
    );
    assert.deepEqual(await records([7, 8, 9]), [
      { id: 7, payload: { b: 2 }, vector: [1, 2] },
      { id: 9, payload: {}, vector: [0.5, 0.25] },
    ]);
  });

  test('a malformed operation anywhere in the batch changes nothing', async () => {
    expectError(
      await batch([{ upsert: { points: [{ id: 20, vector: [1, 1] }] } }, { rename_everything: {} }]),
      400,
      /^Format error in JSON body: /,
    );
    assert.deepEqual(await records([20]), []);
  });
});
