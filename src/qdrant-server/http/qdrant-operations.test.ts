/** @module Every operation of Qdrant's OpenAPI answers: served, or refused with Qdrant's envelope naming it; never an empty 404. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { QDRANT_OPERATIONS } from './qdrant-operations.js';
import { openTestApp, type TestApp } from './test-support/open-test-app.js';

const PATH_VALUES: Record<string, string> = {
  collection_name: 'ops',
  field_name: 'city',
  vector_name: 'extra',
  id: '1',
  shard_id: '0',
  snapshot_name: 'snap',
  peer_id: '1',
};

/** Routes answering outside the envelope (qdrant-subset.md §0.1). */
const PLAIN = new Set(['root', 'healthz', 'livez', 'readyz']);

describe("Qdrant's operation list", () => {
  let app: TestApp;
  before(async () => {
    app = openTestApp();
    await app.send('PUT', '/collections/ops', { vectors: { size: 2, distance: 'Dot' } });
    await app.send('PUT', '/collections/ops/points?wait=true', { points: [{ id: 1, vector: [1, 0] }] });
  });
  after(() => app.close());

  test('holds the 69 operations of v1.19, each once', () => {
    assert.equal(QDRANT_OPERATIONS.length, 69);
    const keys = new Set(QDRANT_OPERATIONS.map((op) => `${op.method} ${op.path}`));
    assert.equal(keys.size, 69);
    assert.equal(new Set(QDRANT_OPERATIONS.map((op) => op.operationId)).size, 69);
  });

  for (const operation of QDRANT_OPERATIONS) {
    test(`${operation.method} ${operation.path} is ${operation.served ? 'served' : 'refused by name'}`, async () => {
      const path = operation.path.replace(/\{([a-z_]+)\}/g, (_m, name: string) => PATH_VALUES[name] ?? 'x');
      const body = operation.method === 'GET' || operation.method === 'DELETE' ? undefined : {};
      const reply = await app.send(operation.method, path, body);
      assert.notEqual(reply.text, '', `${operation.operationId} answered an empty ${reply.status}`);
      if (PLAIN.has(operation.operationId)) return;
      assert.equal(typeof reply.json?.status, reply.status < 300 ? 'string' : 'object', reply.text);
      const error: string = reply.json.status?.error ?? '';
      if (operation.served) {
        assert.doesNotMatch(error, /not supported by memory-pool/, `${operation.operationId}: ${error}`);
      } else {
        assert.equal(reply.status, 400);
        assert.equal(
          error,
          `Bad request: The \`${operation.operationId}\` operation (${operation.method} ${operation.path}) ` +
            "is not supported by memory-pool's embedded store. Use a real Qdrant (QDRANT_URL) for this feature.",
        );
      }
    });
  }
});
