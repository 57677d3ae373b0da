/** @module Contract: the `slice` filter condition (Qdrant 1.19): disjoint slices of the id space covering every point. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, expectOk } from './expect-envelope.js';
import { seedCollection } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

const IDS = [
  ...Array.from({ length: 16 }, (_, i) => i),
  ...Array.from({ length: 16 }, (_, i) => `00000000-0000-0000-0000-${i.toString(16).padStart(12, '0')}`),
];

describe('slice filter', () => {
  let target: ContractTarget;
  let name: string;
  const scroll = async (filter: object): Promise<string[]> => {
    const page = expectOk(
      await target.http('POST', `/collections/${name}/points/scroll`, {
        filter,
        limit: 100,
        with_payload: false,
      }),
    );
    return page.points.map((p: { id: number | string }) => String(p.id));
  };
  before(async () => {
    target = await openTarget();
    name = await seedCollection(
      target,
      'slice',
      IDS.map((id) => ({ id, vector: [0.1, 0.2] })),
      2,
      'Dot',
    );
  });
  after(() => target.close());

  test('the slices of one total are disjoint and cover every point', async () => {
    const seen = new Set<string>();
    for (let index = 0; index < 4; index++) {
      const ids = await scroll({ must: [{ slice: { total: 4, index } }] });
      for (const id of ids) {
        assert.equal(seen.has(id), false, `${id} is in two slices`);
        seen.add(id);
      }
      const rest = await scroll({ must_not: [{ slice: { total: 4, index } }] });
      assert.equal(ids.length + rest.length, IDS.length);
    }
    assert.equal(seen.size, IDS.length);
  });

  test('an index past the total is a 422', async () => {
    expectError(
      await target.http('POST', `/collections/${name}/points/scroll`, {
        filter: { must: [{ slice: { total: 2, index: 2 } }] },
      }),
      422,
      /Slice index must be less than the total number of slices/,
    );
  });
});
