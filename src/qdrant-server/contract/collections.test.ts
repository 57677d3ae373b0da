/** @module Contract: collection create / get / exists / list / delete and the version route (qdrant-subset.md §0.1, §1). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectClientError, expectError, expectOk } from './expect-envelope.js';
import { createCollection } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

describe('collections', () => {
  let target: ContractTarget;
  before(async () => {
    target = await openTarget();
  });
  after(() => target.close());

  test('GET / answers the version check qdrant-js makes, without the envelope (§0.1)', async () => {
    const reply = await target.http('GET', '/');
    assert.equal(reply.status, 200);
    assert.equal(reply.json.title, 'qdrant - vector search engine');
    assert.match(reply.json.version, /^\d+\.\d+\.\d+/);
    if ('commit' in reply.json) assert.match(reply.json.commit, /^[0-9a-f]{40}$/);
    assert.ok(!('status' in reply.json) && !('result' in reply.json), 'GET / must not be enveloped');
    const [major, minor] = String(reply.json.version).split('.').map(Number);
    // qdrant-js 1.18 warns unless the major matches and the minor differs by at most 1.
    assert.equal(major, 1);
    assert.ok(
      Math.abs((minor as number) - 18) <= 1,
      `version ${reply.json.version} is not compatible with 1.18`,
    );
    const info = await target.client.versionInfo();
    assert.equal(info.version, reply.json.version);
  });

  test('create answers true and GET reports the config clients read (§1)', async () => {
    const name = target.uniqueCollection('coll_create');
    const created = await target.http('PUT', `/collections/${name}`, {
      vectors: { size: 4, distance: 'Cosine' },
    });
    assert.equal(expectOk(created), true);
    const info = expectOk(await target.http('GET', `/collections/${name}`));
    assert.equal(info.status, 'green');
    assert.equal(info.optimizer_status, 'ok');
    assert.equal(info.points_count, 0);
    assert.equal(info.indexed_vectors_count, 0);
    assert.deepEqual(info.config.params.vectors, { size: 4, distance: 'Cosine' });
    assert.deepEqual(info.payload_schema, {});
  });

  test('points_count follows upserts and deletes', async () => {
    const name = await createCollection(target, 'coll_count');
    const points = [1, 2, 3].map((id) => ({ id, vector: [id, 1, 0, 0] }));
    expectOk(await target.http('PUT', `/collections/${name}/points?wait=true`, { points }));
    assert.equal(expectOk(await target.http('GET', `/collections/${name}`)).points_count, 3);
    expectOk(await target.http('POST', `/collections/${name}/points/delete?wait=true`, { points: [2] }));
    assert.equal((await target.client.getCollection(name)).points_count, 2);
  });

  test('exists is true or false and never 404 (§1)', async () => {
    const name = await createCollection(target, 'coll_exists');
    assert.deepEqual(expectOk(await target.http('GET', `/collections/${name}/exists`)), { exists: true });
    const missing = target.uniqueCollection('coll_never');
    assert.deepEqual(expectOk(await target.http('GET', `/collections/${missing}/exists`)), { exists: false });
    assert.deepEqual(await target.client.collectionExists(missing), { exists: false });
  });

  test('list holds every collection, sorted by name in byte order (§1)', async () => {
    const names = [
      await createCollection(target, 'zz_list'),
      await createCollection(target, 'aa_list'),
      await createCollection(target, 'Mm_list'),
    ];
    const listed: string[] = expectOk(await target.http('GET', '/collections')).collections.map(
      (c: { name: string }) => c.name,
    );
    const ours = listed.filter((n) => names.includes(n));
    assert.deepEqual(ours, [names[2], names[1], names[0]]);
    const byBytes = [...listed].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    assert.deepEqual(listed, byBytes);
    const viaClient = (await target.client.getCollections()).collections.map((c) => c.name);
    assert.deepEqual(viaClient, listed);
  });

  test('delete answers true when it existed and false with 200 when not (§1)', async () => {
    const name = await createCollection(target, 'coll_delete');
    assert.equal(expectOk(await target.http('DELETE', `/collections/${name}`)), true);
    assert.equal(expectOk(await target.http('DELETE', `/collections/${name}`)), false);
    assert.equal(await target.client.deleteCollection(name), false);
    expectError(
      await target.http('GET', `/collections/${name}`),
      404,
      `Not found: Collection \`${name}\` doesn't exist!`,
    );
  });

  test('re-creating an existing collection is 409 with the exact message (§0.2)', async () => {
    const name = await createCollection(target, 'coll_dup');
    const again = await target.http('PUT', `/collections/${name}`, {
      vectors: { size: 4, distance: 'Cosine' },
    });
    expectError(again, 409, `Wrong input: Collection \`${name}\` already exists!`);
    await expectClientError(
      target.client.createCollection(name, { vectors: { size: 4, distance: 'Cosine' } }),
      409,
      `Wrong input: Collection \`${name}\` already exists!`,
    );
  });

  test('size above 65536 is 422 with the exact validation text (§0.2)', async () => {
    const name = target.uniqueCollection('coll_big');
    const reply = await target.http('PUT', `/collections/${name}`, {
      vectors: { size: 65537, distance: 'Cosine' },
    });
    expectError(
      reply,
      422,
      'Validation error in JSON body: [vectors.size: value 65537 invalid, must be from 1 to 65536]',
    );
    assert.deepEqual(expectOk(await target.http('GET', `/collections/${name}/exists`)), { exists: false });
  });

  test('shard_number, replication_factor, write_consistency_factor: 0 is a 422, -1 a 400 (test_validation)', async () => {
    for (const field of ['shard_number', 'replication_factor', 'write_consistency_factor']) {
      const name = target.uniqueCollection('coll_counts');
      const create = (value: number) =>
        target.http('PUT', `/collections/${name}`, { vectors: { size: 4, distance: 'Dot' }, [field]: value });
      expectError(await create(0), 422, new RegExp(`^Validation error in JSON body: .*${field}`));
      expectError(await create(-1), 400, /^Format error in JSON body: /);
      assert.deepEqual(expectOk(await target.http('GET', `/collections/${name}/exists`)), { exists: false });
    }
  });

  test('size 0 and a lower-case distance are 400 format errors (§0.2)', async () => {
    const untagged =
      /^Format error in JSON body: data did not match any variant of untagged enum VectorsConfig/;
    for (const vectors of [
      { size: 0, distance: 'Cosine' },
      { size: 4, distance: 'cosine' },
    ]) {
      const name = target.uniqueCollection('coll_bad');
      expectError(await target.http('PUT', `/collections/${name}`, { vectors }), 400, untagged);
      assert.deepEqual(expectOk(await target.http('GET', `/collections/${name}/exists`)), { exists: false });
    }
  });

  test('extra settings are accepted on create (§1)', async () => {
    const name = target.uniqueCollection('coll_extras');
    const body = {
      vectors: { size: 8, distance: 'Dot' },
      hnsw_config: { m: 32 },
      optimizers_config: { default_segment_number: 2 },
      on_disk_payload: true,
      shard_number: 1,
      replication_factor: 1,
    };
    assert.equal(expectOk(await target.http('PUT', `/collections/${name}`, body)), true);
    const info = await target.client.getCollection(name);
    assert.deepEqual(info.config.params.vectors, { size: 8, distance: 'Dot' });
  });

  test('named vectors are reported by name, as st reads `.vectors.default.size` (§1)', async () => {
    const name = target.uniqueCollection('coll_named');
    const vectors = { default: { size: 6, distance: 'Cosine' } };
    assert.equal(expectOk(await target.http('PUT', `/collections/${name}`, { vectors })), true);
    const info = expectOk(await target.http('GET', `/collections/${name}`));
    assert.deepEqual(info.config.params.vectors, vectors);
  });

  test('a collection without vectors rejects a plain-array upsert (§1)', async () => {
    const name = target.uniqueCollection('coll_novec');
    assert.equal(expectOk(await target.http('PUT', `/collections/${name}`, {})), true);
    const reply = await target.http('PUT', `/collections/${name}/points?wait=true`, {
      points: [{ id: 1, vector: [1, 2, 3, 4] }],
    });
    expectError(reply, 400, /^Wrong input: Not existing vector name error: ?/);
  });

  test('qdrant-js createCollection / getCollection / collectionExists round trip', async () => {
    const name = target.uniqueCollection('coll_client');
    assert.equal(
      await target.client.createCollection(name, { vectors: { size: 5, distance: 'Euclid' } }),
      true,
    );
    assert.deepEqual(await target.client.collectionExists(name), { exists: true });
    const info = await target.client.getCollection(name);
    assert.deepEqual(info.config.params.vectors, { size: 5, distance: 'Euclid' });
    assert.equal(await target.client.deleteCollection(name), true);
  });
  test("info warns of a vector's HNSW inline_storage without quantization, and only then, as Qdrant does", async () => {
    const warningsOf = async (vector: object) => {
      const name = target.uniqueCollection('coll_warn');
      expectOk(
        await target.http('PUT', `/collections/${name}`, {
          vectors: { v: { size: 4, distance: 'Dot', ...vector } },
        }),
      );
      const info = expectOk(await target.http('GET', `/collections/${name}`));
      await target.client.deleteCollection(name);
      return info.warnings;
    };
    assert.deepEqual(await warningsOf({ hnsw_config: { inline_storage: true } }), [
      {
        message:
          "The `hnsw_config.inline_storage` option for vector 'v' requires quantization to be enabled. This option will be ignored.",
      },
    ]);
    const quantized = {
      hnsw_config: { inline_storage: true },
      quantization_config: { scalar: { type: 'int8' } },
    };
    assert.equal(await warningsOf(quantized), undefined);
    assert.equal(await warningsOf({}), undefined);
  });
});
