/** @module Contract: `PATCH /collections/{name}` merges config diffs and reports them in collection info (tests/openapi/test_collection_update.py). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, expectOk } from './expect-envelope.js';
import { upsertPoints } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

describe('collection update', () => {
  let target: ContractTarget;
  before(async () => {
    target = await openTarget();
  });
  after(() => target.close());
  const info = async (name: string) => expectOk(await target.http('GET', `/collections/${name}`));

  test('config diffs are merged and reported; the unnamed vector is ""', async () => {
    const name = target.uniqueCollection('patch');
    expectOk(await target.http('PUT', `/collections/${name}`, { vectors: { size: 4, distance: 'Cosine' } }));
    expectOk(
      await target.http('PATCH', `/collections/${name}`, {
        vectors: { '': { hnsw_config: { m: 32 }, on_disk: true } },
        hnsw_config: { ef_construct: 123 },
        optimizers_config: { indexing_threshold: 20000 },
        params: { on_disk_payload: false },
        metadata: { team: 'memory' },
      }),
    );
    const config = (await info(name)).config;
    assert.equal(config.params.vectors.hnsw_config.m, 32);
    assert.equal(config.params.vectors.on_disk, true);
    assert.equal(config.params.on_disk_payload, false);
    assert.equal(config.hnsw_config.m, 16);
    assert.equal(config.hnsw_config.ef_construct, 123);
    assert.equal(config.optimizer_config.indexing_threshold, 20000);
    assert.deepEqual(config.metadata, { team: 'memory' });
    expectOk(await target.http('PATCH', `/collections/${name}`, { metadata: { team: null, owner: 'me' } }));
    assert.deepEqual((await info(name)).config.metadata, { owner: 'me' }, 'a null metadata key is removed');
    expectError(
      await target.http('PATCH', `/collections/${name}`, { vectors: { nope: { on_disk: true } } }),
      400,
      /Not existing vector name error: nope/,
    );
  });

  test("a sparse vector's modifier set by PATCH changes its scores", async () => {
    const name = target.uniqueCollection('patch_idf');
    expectOk(await target.http('PUT', `/collections/${name}`, { sparse_vectors: { words: {} } }));
    await upsertPoints(target, name, [
      { id: 1, vector: { words: { indices: [1, 2], values: [1, 1] } } },
      { id: 2, vector: { words: { indices: [2], values: [1] } } },
    ]);
    const score = async () =>
      expectOk(
        await target.http('POST', `/collections/${name}/points/query`, {
          query: { indices: [1], values: [1] },
          using: 'words',
        }),
      ).points[0].score;
    assert.equal(await score(), 1);
    expectOk(
      await target.http('PATCH', `/collections/${name}`, { sparse_vectors: { words: { modifier: 'idf' } } }),
    );
    assert.deepEqual((await info(name)).config.params.sparse_vectors, { words: { modifier: 'idf' } });
    // idf(N = 2, df = 1) = ln((2 - 1 + 0.5) / (1 + 0.5) + 1) = ln 2
    assert.ok(Math.abs((await score()) - Math.log(2)) < 1e-5);
  });
  test('`quantization` and `optimizer_config` are read as quantization_config and optimizers_config, as serde aliases', async () => {
    const name = target.uniqueCollection('patch_alias');
    const scalar = (quantile: number) => ({ scalar: { type: 'int8', quantile } });
    expectOk(
      await target.http('PUT', `/collections/${name}`, {
        vectors: { size: 4, distance: 'Dot' },
        quantization: scalar(0.5),
        optimizer_config: { indexing_threshold: 12345 },
      }),
    );
    let config = (await info(name)).config;
    assert.deepEqual(config.quantization_config, scalar(0.5));
    assert.equal(config.optimizer_config.indexing_threshold, 12345);
    expectOk(await target.http('PATCH', `/collections/${name}`, { quantization: scalar(0.7) }));
    config = (await info(name)).config;
    assert.deepEqual(config.quantization_config, scalar(0.7));
  });
});
