/** @module Contract: a search's or query's `params` (`exact`, `hnsw_ef`), Qdrant's SearchParams (issue 36). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, expectOk } from './expect-envelope.js';
import { seedCollection } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

describe('search-params', () => {
  let target: ContractTarget;
  let name: string;
  before(async () => {
    target = await openTarget();
    name = await seedCollection(
      target,
      'sp_cos',
      [1, 2, 3, 4, 5, 6].map((k) => ({ id: k, vector: [k, 7 - k, 0, 0], payload: { big: k > 3 } })),
    );
  });
  after(() => target.close());

  const ids = (points: { id: number }[]) => points.map((p) => p.id);
  const search = async (body: object) =>
    ids(expectOk(await target.http('POST', `/collections/${name}/points/search`, body)));
  const query = async (body: object) =>
    ids(expectOk(await target.http('POST', `/collections/${name}/points/query`, body)).points);

  test('exact and hnsw_ef are accepted on search, query and prefetch and give the same hits', async () => {
    const plain = await search({ vector: [5, 2, 0, 0], limit: 3 });
    assert.deepEqual(plain, [5, 6, 4]);
    assert.deepEqual(await search({ vector: [5, 2, 0, 0], limit: 3, params: { exact: true } }), plain);
    assert.deepEqual(
      await search({ vector: [5, 2, 0, 0], limit: 3, params: { hnsw_ef: 64, exact: false } }),
      plain,
    );
    assert.deepEqual(await query({ query: [5, 2, 0, 0], limit: 3, params: { hnsw_ef: 1 } }), plain);
    const prefetched = await query({
      prefetch: { query: [5, 2, 0, 0], limit: 3, params: { exact: true } },
      query: { fusion: 'rrf' },
      params: { quantization: { ignore: true } },
    });
    assert.deepEqual(prefetched, plain);
    const filtered = await search({
      vector: [1, 6, 0, 0],
      filter: { must: [{ key: 'big', match: { value: true } }] },
      limit: 2,
      params: { exact: false },
    });
    assert.deepEqual(filtered, [4, 5]);
  });

  test('hnsw_ef 0 is 422 naming the field; a non-boolean exact is 400', async () => {
    expectError(
      await target.http('POST', `/collections/${name}/points/search`, {
        vector: [1, 0, 0, 0],
        limit: 1,
        params: { hnsw_ef: 0 },
      }),
      422,
      /^Validation error in JSON body: \[.*params\.hnsw_ef: value 0 invalid, must be 1 or larger\]/,
    );
    expectError(
      await target.http('POST', `/collections/${name}/points/query`, {
        query: [1, 0, 0, 0],
        params: { exact: 'yes' },
      }),
      400,
      /^Format error in JSON body: /,
    );
  });
});
