/** @module Tests for the collection routes and the create body's Qdrant validation (qdrant-subset.md §1). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openTestApp, type TestApp } from './test-support/open-test-app.js';

describe('collection routes', () => {
  let app: TestApp;
  before(() => {
    app = openTestApp();
  });
  after(() => app.close());

  const create = (name: string, body: unknown) => app.send('PUT', `/collections/${name}`, body);

  test('create, list in byte order, info, exists and delete', async () => {
    assert.deepEqual((await create('b', { vectors: { size: 4, distance: 'Cosine' } })).json.result, true);
    await create('B', { vectors: { size: 4, distance: 'Dot' } });
    await create('a', {});
    const list = await app.send('GET', '/collections');
    assert.deepEqual(list.json.result.collections, [{ name: 'B' }, { name: 'a' }, { name: 'b' }]);
    const info = await app.send('GET', '/collections/b');
    assert.deepEqual(info.json.result.config.params.vectors, { size: 4, distance: 'Cosine' });
    assert.equal(info.json.result.points_count, 0);
    assert.equal((await app.send('GET', '/collections/b/exists')).json.result.exists, true);
    assert.equal((await app.send('DELETE', '/collections/b')).json.result, true);
    const again = await app.send('DELETE', '/collections/b');
    assert.equal(again.status, 200);
    assert.equal(again.json.result, false);
    assert.equal((await app.send('GET', '/collections/b/exists')).json.result.exists, false);
  });

  test('creating an existing collection is a 409', async () => {
    await create('dup', { vectors: { size: 2, distance: 'Dot' } });
    const reply = await create('dup', { vectors: { size: 2, distance: 'Dot' } });
    assert.equal(reply.status, 409);
    assert.equal(reply.json.status.error, 'Wrong input: Collection `dup` already exists!');
  });

  test('a vector size above 65536 is the exact 422', async () => {
    const reply = await create('big', { vectors: { size: 65537, distance: 'Cosine' } });
    assert.equal(reply.status, 422);
    assert.equal(
      reply.json.status.error,
      'Validation error in JSON body: [vectors.size: value 65537 invalid, must be from 1 to 65536]',
    );
  });

  test('size 0 and a lowercase distance match no variant of VectorsConfig', async () => {
    for (const vectors of [
      { size: 0, distance: 'Cosine' },
      { size: 4, distance: 'cosine' },
    ]) {
      const reply = await create('bad', { vectors });
      assert.equal(reply.status, 400);
      assert.match(
        reply.json.status.error,
        /^Format error in JSON body: data did not match any variant of untagged enum VectorsConfig/,
      );
    }
    assert.equal((await app.send('GET', '/collections/bad/exists')).json.result.exists, false);
  });

  test('named and sparse vector configs are kept and reported by name', async () => {
    const named = await create('named', {
      vectors: { text: { size: 4, distance: 'Cosine' } },
      sparse_vectors: { words: { modifier: 'idf' } },
    });
    assert.equal(named.status, 200);
    const info = (await app.send('GET', '/collections/named')).json.result;
    assert.deepEqual(info.config.params.vectors, { text: { size: 4, distance: 'Cosine' } });
    assert.deepEqual(info.config.params.sparse_vectors, { words: { modifier: 'idf' } });
    const clash = await create('clash', {
      vectors: { a: { size: 2, distance: 'Dot' } },
      sparse_vectors: { a: {} },
    });
    assert.equal(clash.status, 400);
    assert.equal(
      clash.json.status.error,
      "Wrong input: Dense and sparse vector names must be unique - duplicate found with 'a'",
    );
    const badModifier = await create('bad_modifier', { sparse_vectors: { s: { modifier: 'bm25' } } });
    assert.equal(badModifier.status, 400);
    assert.match(badModifier.json.status.error, /^Format error in JSON body: unknown variant `bm25`/);
  });

  test('collection names are validated as path parameters', async () => {
    const long = await create('x'.repeat(256), {});
    assert.equal(long.status, 422);
    assert.match(long.json.status.error, /^Validation error in path parameters: \[collection_name: /);
    const colon = await create('a:b', {});
    assert.equal(colon.status, 422);
    assert.equal(
      colon.json.status.error,
      'Validation error in path parameters: [collection_name: collection name cannot contain ":" char]',
    );
    // Only create has the strict character set; reads just see a missing collection.
    assert.equal((await app.send('GET', '/collections/a:b')).status, 404);
    assert.equal((await app.send('GET', '/collections/a%2Fb')).status, 422);
  });

  test('a missing collection is 404 on collection-scoped routes', async () => {
    const reply = await app.send('POST', '/collections/ghost/points/scroll', {});
    assert.equal(reply.status, 404);
    assert.equal(reply.json.status.error, "Not found: Collection `ghost` doesn't exist!");
  });

  test('timeout=0 on create is a 422 query parameter error', async () => {
    const reply = await app.send('PUT', '/collections/t?timeout=0', {});
    assert.equal(reply.status, 422);
    assert.match(
      reply.json.status.error,
      /^Validation error in query parameters: \[timeout: value 0 invalid/,
    );
  });
});
