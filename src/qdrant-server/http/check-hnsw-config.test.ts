/** @module Tests for Qdrant's hnsw_config validation on create and PATCH (ef_construct >= 4, full_scan_threshold >= 10). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openTestApp, type TestApp } from './test-support/open-test-app.js';

describe('hnsw_config validation', () => {
  let app: TestApp;
  before(() => {
    app = openTestApp();
  });
  after(() => app.close());

  test('create: ef_construct under 4 and full_scan_threshold under 10 are 422s naming the field', async () => {
    const low = await app.send('PUT', '/collections/a', {
      vectors: { size: 4, distance: 'Cosine' },
      hnsw_config: { ef_construct: 3, full_scan_threshold: 9 },
    });
    assert.equal(low.status, 422);
    assert.equal(
      low.json.status.error,
      'Validation error in JSON body: [hnsw_config.ef_construct: value 3 invalid, must be 4 or larger; ' +
        'hnsw_config.full_scan_threshold: value 9 invalid, must be 10 or larger]',
    );
    const named = await app.send('PUT', '/collections/b', {
      vectors: { text: { size: 4, distance: 'Cosine', hnsw_config: { ef_construct: 2 } } },
    });
    assert.equal(named.status, 422);
    assert.match(named.json.status.error, /vectors\.text\.hnsw_config\.ef_construct: value 2 invalid/);
    assert.equal((await app.send('GET', '/collections/b/exists')).json.result.exists, false);
  });

  test('PATCH: the same 422, and the collection keeps its settings', async () => {
    await app.send('PUT', '/collections/p', { vectors: { size: 4, distance: 'Cosine' } });
    const patched = await app.send('PATCH', '/collections/p', { hnsw_config: { ef_construct: 1 } });
    assert.equal(patched.status, 422);
    assert.match(
      patched.json.status.error,
      /hnsw_config\.ef_construct: value 1 invalid, must be 4 or larger/,
    );
    const vector = await app.send('PATCH', '/collections/p', {
      vectors: { '': { hnsw_config: { full_scan_threshold: 0 } } },
    });
    assert.equal(vector.status, 422);
    const info = await app.send('GET', '/collections/p');
    assert.equal(info.json.result.config.hnsw_config.ef_construct, 100);
  });
});
