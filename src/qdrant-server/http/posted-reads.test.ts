import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isQdrantError } from '../qdrant-error.js';
import { type PointReadRequest, runPointRead } from './posted-reads.js';
import { openTestApp, type TestApp } from './test-support/open-test-app.js';

const ROUTES: Record<PointReadRequest['kind'], string> = {
  retrieve: '/points',
  search: '/points/search',
  query: '/points/query',
  count: '/points/count',
  scroll: '/points/scroll',
};

/** Reads recall makes, and reads REST refuses: each must answer the same posted as over REST. */
const CASES: readonly (PointReadRequest & { readonly collection?: string; readonly why: string })[] = [
  {
    why: 'dense query with a filter, a threshold and chosen payload keys',
    kind: 'query',
    body: {
      query: [0.3, 0.1, 0.7, 0.2],
      using: 'dense',
      limit: 5,
      score_threshold: 0.1,
      with_payload: ['chunkId', 'messageIds'],
      filter: { must_not: [{ key: 'isDm', match: { value: true } }] },
    },
  },
  {
    why: 'sparse query (bm25 with idf)',
    kind: 'query',
    body: { query: { indices: [1, 5, 9], values: [1, 1, 2] }, using: 'bm25', limit: 4, with_payload: true },
  },
  {
    why: 'filtered search with the client defaults written out',
    kind: 'search',
    body: {
      vector: { name: 'dense', vector: [1, 0, 0, 0] },
      limit: 3,
      offset: 0,
      with_payload: true,
      with_vector: false,
      filter: { must: [{ is_empty: { key: 'source' } }] },
    },
  },
  {
    why: 'a scroll page of chosen payload keys, from an offset',
    kind: 'scroll',
    body: { limit: 4, offset: 3, with_payload: ['chunkId'], with_vector: false },
  },
  {
    why: 'a filtered scroll to its end',
    kind: 'scroll',
    body: { limit: 50, filter: { must: [{ key: 'isDm', match: { value: true } }] } },
  },
  {
    why: 'retrieve by id (one missing, one twice)',
    kind: 'retrieve',
    body: { ids: [3, 99, 1, 3], with_payload: true, with_vector: false },
  },
  {
    why: 'count with a filter',
    kind: 'count',
    body: { exact: true, filter: { must: [{ key: 'isDm', match: { value: true } }] } },
  },
  { why: 'a missing collection (404)', kind: 'count', body: { exact: true }, collection: 'gone' },
  {
    why: 'a query without `query` using a missing vector (400)',
    kind: 'query',
    body: { using: 'nope', query: [1, 0, 0, 0] },
  },
  { why: 'retrieve without ids (400)', kind: 'retrieve', body: { with_payload: true } },
  // Bodies JSON would change: REST sees NaN and Infinity as null, a Date as its string.
  {
    why: 'a NaN in a query vector (REST: 400 invalid type null)',
    kind: 'query',
    body: { query: [Number.NaN, 0, 0, 1], using: 'dense', limit: 2 },
  },
  {
    why: 'a NaN score threshold (null in JSON: no threshold)',
    kind: 'search',
    body: { vector: { name: 'dense', vector: [1, 0, 0, 0] }, limit: 2, score_threshold: Number.NaN },
  },
  {
    why: 'an Infinity score threshold',
    kind: 'query',
    body: { query: [1, 0, 0, 0], using: 'dense', limit: 2, score_threshold: Number.POSITIVE_INFINITY },
  },
  {
    why: 'a NaN range bound',
    kind: 'count',
    body: { exact: true, filter: { must: [{ key: 'n', range: { gte: Number.NaN } }] } },
  },
  {
    why: 'a Date range bound',
    kind: 'count',
    body: { exact: true, filter: { must: [{ key: 'n', range: { gte: new Date(0) } }] } },
  },
  {
    why: 'a search whose vector has the wrong size (400)',
    kind: 'search',
    body: { vector: { name: 'dense', vector: [1] }, limit: 2 },
  },
];

describe('point reads posted by a caller in the same process', () => {
  let app: TestApp;
  before(async () => {
    app = openTestApp();
    await app.send('PUT', '/collections/parts', {
      vectors: { dense: { size: 4, distance: 'Cosine' } },
      sparse_vectors: { bm25: { modifier: 'idf' } },
    });
    await app.send('PUT', '/collections/parts/index', { field_name: 'source', field_schema: 'keyword' });
    const points = Array.from({ length: 12 }, (_, i) => ({
      id: i + 1,
      vector: {
        dense: [1 / (i + 1), (i % 3) / 3, (i % 5) / 5, 0.1],
        bm25: { indices: [1 + (i % 4), 5 + (i % 3), 9], values: [1, 0.5 + i / 10, 0.25] },
      },
      payload: {
        chunkId: `c${i % 4}`,
        messageIds: `m${i}`,
        isDm: i % 4 === 0,
        n: i,
        ...(i % 5 === 0 ? {} : { source: 's' }),
      },
    }));
    const put = await app.send('PUT', '/collections/parts/points?wait=true', { points });
    assert.equal(put.status, 200);
  });
  after(() => app.close());

  for (const read of CASES) {
    test(`${read.why}: the result, or the refusal, REST answers`, async () => {
      const collection = read.collection ?? 'parts';
      const rest = await app.send('POST', `/collections/${collection}${ROUTES[read.kind]}`, read.body);
      const posted = runPointRead(app.engine, collection, { kind: read.kind, body: read.body });
      if (rest.status === 200) {
        assert.deepEqual(await posted, rest.json.result);
        return;
      }
      await assert.rejects(posted, (error: unknown) => {
        assert.ok(isQdrantError(error));
        assert.deepEqual([error.status, error.message], [rest.status, rest.json.status.error]);
        return true;
      });
    });
  }
});
