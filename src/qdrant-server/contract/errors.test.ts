/** @module Contract: error envelopes, missing collections, request-extraction errors, names and routing (qdrant-subset.md §0). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, expectOk } from './expect-envelope.js';
import { seedCollection } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

describe('errors', () => {
  let target: ContractTarget;
  let name: string;
  before(async () => {
    target = await openTarget();
    name = await seedCollection(target, 'err', [{ id: 1, vector: [1, 0, 0, 0], payload: { a: 1 } }]);
  });
  after(() => target.close());

  test('every collection-scoped route answers 404 with the exact text for a missing collection (§0.2)', async () => {
    const missing = target.uniqueCollection('err_missing');
    const base = `/collections/${missing}`;
    const routes: [string, string, unknown?][] = [
      ['GET', base],
      ['PUT', `${base}/points?wait=true`, { points: [{ id: 1, vector: [1, 0, 0, 0] }] }],
      ['POST', `${base}/points`, { ids: [1] }],
      ['GET', `${base}/points/1`],
      ['POST', `${base}/points/search`, { vector: [1, 0, 0, 0], limit: 1 }],
      ['POST', `${base}/points/query`, { query: [1, 0, 0, 0] }],
      ['POST', `${base}/points/scroll`, {}],
      ['POST', `${base}/points/count`, {}],
      ['POST', `${base}/points/delete?wait=true`, { points: [1] }],
      ['POST', `${base}/points/payload?wait=true`, { payload: { a: 1 }, points: [1] }],
      ['PUT', `${base}/index?wait=true`, { field_name: 'a', field_schema: 'keyword' }],
    ];
    for (const [method, path, body] of routes) {
      const reply = await target.http(method, path, body);
      expectError(reply, 404, `Not found: Collection \`${missing}\` doesn't exist!`);
    }
  });

  test('JSON that does not parse is 400 "Format error in JSON body" with time 0 (§0.2)', async () => {
    const reply = await target.http('POST', `/collections/${name}/points/scroll`, '{"limit": 1,');
    expectError(reply, 400, /^Format error in JSON body: /);
    assert.equal(reply.json.time, 0);
    const plainText = await target.http('POST', `/collections/${name}/points/scroll`, '{}', {
      'Content-Type': 'text/plain',
    });
    assert.equal(plainText.status, 400, `a non-JSON content type must be refused: ${plainText.text}`);
    const wrongShape = await target.http('POST', `/collections/${name}/points/search`, {
      vector: 'abc',
      limit: 1,
    });
    expectError(wrongShape, 400, /^Format error in JSON body: /);
  });

  test('bad query parameters: wait=yes is 400, timeout=0 is 422; valid extras are accepted (§0.2, §0.5)', async () => {
    const points = { points: [{ id: 2, vector: [0, 1, 0, 0] }] };
    expectError(
      await target.http('PUT', `/collections/${name}/points?wait=yes`, points),
      400,
      /^Deserialize error in query parameters: /,
    );
    expectError(
      await target.http('POST', `/collections/${name}/points/scroll?timeout=0`, {}),
      422,
      /timeout: value 0 invalid/,
    );
    expectOk(
      await target.http('PUT', `/collections/${name}/points?wait=true&ordering=strong&timeout=5`, points),
    );
    expectOk(
      await target.http('POST', `/collections/${name}/points/scroll?consistency=majority&timeout=3`, {}),
    );
    expectOk(await target.http('POST', `/collections/${name}/points/count?consistency=`, {}));
  });

  test('invalid collection names are 422 path-parameter errors (§0.2)', async () => {
    expectError(
      await target.http('PUT', `/collections/${encodeURIComponent('bad:name')}`, {
        vectors: { size: 4, distance: 'Dot' },
      }),
      422,
      /^Validation error in path parameters: \[collection_name: /,
    );
    expectError(
      await target.http('GET', `/collections/${'n'.repeat(256)}`),
      422,
      /^Validation error in path parameters: \[collection_name: /,
    );
    const longest = target.uniqueCollection('len');
    const padded = longest + 'x'.repeat(255 - longest.length);
    try {
      assert.equal(
        expectOk(
          await target.http('PUT', `/collections/${padded}`, { vectors: { size: 4, distance: 'Dot' } }),
        ),
        true,
      );
    } finally {
      await target.http('DELETE', `/collections/${padded}`);
    }
  });

  test('a trailing slash is trimmed; an unknown route is an empty 404 (§0.2)', async () => {
    const listed = expectOk(await target.http('GET', '/collections/'));
    assert.ok(listed.collections.some((c: { name: string }) => c.name === name));
    const withSlash = expectOk(await target.http('GET', `/collections/${name}/`));
    assert.deepEqual(withSlash.config, expectOk(await target.http('GET', `/collections/${name}`)).config);
    const unknown = await target.http('GET', '/no/such/route');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.text, '');
  });

  test('health routes answer plain text (§0.1)', async () => {
    for (const [path, text] of [
      ['/healthz', 'healthz check passed'],
      ['/livez', 'healthz check passed'],
      ['/readyz', 'all shards are ready'],
    ] as const) {
      const reply = await target.http('GET', path);
      assert.equal(reply.status, 200, path);
      assert.equal(reply.text, text, path);
    }
  });
});
