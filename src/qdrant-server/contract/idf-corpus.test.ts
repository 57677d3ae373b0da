/**
 * @module Contract: `params.idf` of a sparse query (Qdrant 1.19): `{corpus: Filter}` takes N and df from the corpus
 * only, whatever the query's filter; on a vector without the `idf` modifier it is a 400, never ignored.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, expectOk } from './expect-envelope.js';
import { upsertPoints } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

/** Qdrant's idf, ln((N − df + 0.5) / (df + 0.5) + 1), computed here independently of the store. */
const idf = (documents: number, frequency: number) =>
  Math.log((documents - frequency + 0.5) / (frequency + 0.5) + 1);
const tenant = (value: string) => ({ must: [{ key: 'tenant', match: { value } }] });
const close = (actual: number | undefined, expected: number) =>
  assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-5, `${actual} != ${expected}`);

describe('params.idf corpus', () => {
  let target: ContractTarget;
  let name: string;
  const scores = async (body: object): Promise<Map<number, number>> => {
    const reply = expectOk(await target.http('POST', `/collections/${name}/points/query`, body));
    return new Map(reply.points.map((p: { id: number; score: number }) => [p.id, p.score]));
  };
  const sparseQuery = { query: { indices: [1, 2, 3], values: [1, 1, 1] }, using: 'lexical' };
  before(async () => {
    target = await openTarget();
    name = target.uniqueCollection('idfc');
    expectOk(
      await target.http('PUT', `/collections/${name}`, {
        vectors: { dense: { size: 2, distance: 'Dot' } },
        sparse_vectors: { lexical: { modifier: 'idf' }, plain: {} },
      }),
    );
    const sparse = (indices: number[]) => ({ indices, values: indices.map(() => 1) });
    await upsertPoints(target, name, [
      {
        id: 1,
        vector: { dense: [1, 0], lexical: sparse([1, 2]), plain: sparse([1]) },
        payload: { tenant: 'a' },
      },
      { id: 2, vector: { dense: [1, 0], lexical: sparse([1]) }, payload: { tenant: 'a' } },
      { id: 3, vector: { dense: [1, 0], lexical: sparse([1, 2, 3]) }, payload: { tenant: 'b' } },
      { id: 4, vector: { dense: [1, 0], lexical: sparse([2]) }, payload: { tenant: 'b' } },
    ]);
  });
  after(() => target.close());

  test('"global" is the default: statistics over every point', async () => {
    const global = await scores({ ...sparseQuery, params: { idf: 'global' } });
    assert.deepEqual(global, await scores(sparseQuery));
    close(global.get(3), idf(4, 3) + idf(4, 3) + idf(4, 1));
  });

  test('a corpus takes N and df from its points only, whatever the query filter', async () => {
    const params = { idf: { corpus: tenant('a') } };
    const broad = await scores({ ...sparseQuery, params });
    close(broad.get(3), idf(2, 2) + idf(2, 1) + idf(2, 0));
    close(broad.get(4), idf(2, 1));
    const narrow = await scores({ ...sparseQuery, params, filter: tenant('b') });
    assert.deepEqual([...narrow.keys()].sort(), [3, 4]);
    assert.equal(narrow.get(3), broad.get(3));
    const empty = await scores({ ...sparseQuery, params: { idf: { corpus: tenant('missing') } } });
    close(empty.get(3), 3 * Math.log(2));
  });

  test('idf on a vector without the idf modifier is a 400 naming it', async () => {
    const params = { idf: { corpus: tenant('a') } };
    const dense = expectError(
      await target.http('POST', `/collections/${name}/points/query`, {
        query: [1, 0],
        using: 'dense',
        params,
      }),
      400,
      /idf/,
    );
    assert.match(dense, /"dense"/);
    expectError(
      await target.http('POST', `/collections/${name}/points/query`, {
        query: { indices: [1], values: [1] },
        using: 'plain',
        params: { idf: 'global' },
      }),
      400,
      /idf.*"plain"/,
    );
  });
});
