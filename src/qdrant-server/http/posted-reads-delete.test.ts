/** @module Posted reads the engine answers after yielding, while their collection is deleted: REST's 404. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isQdrantError } from '../qdrant-error.js';
import { type PointReadRequest, runPointRead } from './posted-reads.js';
import { openTestApp, type TestApp } from './test-support/open-test-app.js';

const READS: readonly PointReadRequest[] = [
  { kind: 'search', body: { vector: [1, 0, 0, 0], limit: 3 } },
  { kind: 'query', body: { query: [1, 0, 0, 0], limit: 3 } },
  { kind: 'scroll', body: { limit: 3 } },
];
const PATHS = { search: '/points/search', query: '/points/query', scroll: '/points/scroll' } as const;

describe('a posted read whose collection is deleted before it is answered', () => {
  let app: TestApp;
  before(() => {
    app = openTestApp();
  });
  after(() => app.close());

  for (const read of READS) {
    test(`${read.kind}: the 404 REST answers for the collection, not a page of the dropped one`, async () => {
      const made = await app.send('PUT', '/collections/doomed', { vectors: { size: 4, distance: 'Cosine' } });
      assert.equal(made.status, 200, made.text);
      const points = Array.from({ length: 5 }, (_, i) => ({ id: i + 1, vector: [1, i, 0, 1] }));
      assert.equal((await app.send('PUT', '/collections/doomed/points?wait=true', { points })).status, 200);

      // Started, then the delete lands before the engine's answer is taken (as a delete queued on the thread would).
      const posted = runPointRead(app.engine, 'doomed', read);
      assert.equal(app.engine.deleteCollection('doomed'), true);
      const rest = await app.send(
        'POST',
        `/collections/doomed${PATHS[read.kind as keyof typeof PATHS]}`,
        read.body,
      );
      assert.equal(rest.status, 404);
      await assert.rejects(posted, (error: unknown) => {
        assert.ok(isQdrantError(error));
        assert.deepEqual([error.status, error.message], [rest.status, rest.json.status.error]);
        return true;
      });
    });
  }
});
