/** @module A posted upsert (Float32Arrays, payloads as one JSON string) answers as `PUT /points?wait=true` does. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { applyUpsertBatch, type PostedVector, type UpsertBatch } from './posted-upsert.js';
import { openTestApp, type TestApp } from './test-support/open-test-app.js';

/** One case: the REST point and the posted vector that stands for the same JSON. */
interface Case {
  readonly what: string;
  readonly collection: string;
  readonly rest: Record<string, unknown>;
  readonly posted: UpsertBatch;
}

const f32 = (...values: number[]) => new Float32Array(values);
const one = (id: unknown, vector: PostedVector | undefined, payload: unknown = {}): UpsertBatch => ({
  ids: [id as number],
  vectors: vector === undefined ? [] : [vector],
  payloads: JSON.stringify([payload]),
});

const refusals: Case[] = [
  {
    what: 'a wrong dimension',
    collection: 'plain',
    rest: { id: 1, vector: [1, 2] },
    posted: one(1, f32(1, 2)),
  },
  { what: 'an empty vector', collection: 'plain', rest: { id: 1, vector: [] }, posted: one(1, f32()) },
  { what: 'a missing vector', collection: 'plain', rest: { id: 1 }, posted: one(1, undefined) },
  {
    what: 'a bad id',
    collection: 'plain',
    rest: { id: -1, vector: [1, 2, 3] },
    posted: one(-1, f32(1, 2, 3)),
  },
  {
    what: 'a payload that is not a map',
    collection: 'plain',
    rest: { id: 1, vector: [1, 2, 3], payload: 5 },
    posted: one(1, f32(1, 2, 3), 5),
  },
  {
    what: 'a named vector on the unnamed collection',
    collection: 'plain',
    rest: { id: 1, vector: { dense: [1, 2, 3] } },
    posted: one(1, { dense: f32(1, 2, 3) }),
  },
  {
    what: 'an unknown name',
    collection: 'named',
    rest: { id: 1, vector: { other: [1, 2, 3] } },
    posted: one(1, { other: f32(1, 2, 3) }),
  },
  {
    what: 'a dense vector for a sparse name',
    collection: 'named',
    rest: { id: 1, vector: { lexical: [1, 2, 3] } },
    posted: one(1, { lexical: f32(1, 2, 3) }),
  },
  {
    what: 'a named wrong dimension',
    collection: 'named',
    rest: { id: 1, vector: { dense: [1, 2] } },
    posted: one(1, { dense: f32(1, 2) }),
  },
  {
    what: 'repeated sparse indices',
    collection: 'named',
    rest: { id: 1, vector: { lexical: { indices: [4, 4], values: [1, 2] } } },
    posted: one(1, { lexical: { indices: [4, 4], values: [1, 2] } }),
  },
  {
    what: 'sparse lists of two lengths',
    collection: 'named',
    rest: { id: 1, vector: { lexical: { indices: [4, 5], values: [1] } } },
    posted: one(1, { lexical: { indices: [4, 5], values: [1] } }),
  },
  {
    what: 'a missing collection',
    collection: 'nowhere',
    rest: { id: 1, vector: [1, 2, 3] },
    posted: one(1, f32(1, 2, 3)),
  },
];

describe('a posted upsert beside PUT /points', () => {
  let app: TestApp;
  before(async () => {
    app = openTestApp();
    await app.send('PUT', '/collections/plain', { vectors: { size: 3, distance: 'Cosine' } });
    await app.send('PUT', '/collections/named', {
      vectors: { dense: { size: 3, distance: 'Cosine' } },
      sparse_vectors: { lexical: {} },
    });
  });
  after(() => app.close());

  /** The posted batch's refusal as the route renders one: its status and `status.error`. */
  const postRefusal = (collection: string, batch: UpsertBatch) => {
    try {
      applyUpsertBatch(app.engine, collection, batch);
    } catch (error) {
      return { status: (error as { status?: number }).status, message: (error as Error).message };
    }
    return { status: 200, message: undefined };
  };

  for (const { what, collection, rest, posted } of refusals) {
    test(`${what}: the same status and message`, async () => {
      const reply = await app.send('PUT', `/collections/${collection}/points?wait=true`, { points: [rest] });
      assert.ok(reply.status >= 400, `REST refuses ${what}`);
      assert.deepEqual(postRefusal(collection, posted), {
        status: reply.status,
        message: reply.json.status.error,
      });
    });
  }

  // The service's REST client writes NaN and ±Infinity as null (JSON has neither): REST refuses that as it reads
  // the body; a posted batch carries them as they are, and is refused with the same status, naming the component.
  for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
    const cases: { collection: string; vector: PostedVector; field: string }[] = [
      { collection: 'plain', vector: f32(1, bad, 0), field: 'points[0].vector[1]' },
      { collection: 'named', vector: { dense: f32(bad, 1, 0) }, field: 'points[0].vector.dense[0]' },
      {
        collection: 'named',
        vector: { lexical: { indices: [3, 4], values: [0.5, bad] } },
        field: 'points[0].vector.lexical.values[1]',
      },
    ];
    for (const { collection, vector, field } of cases) {
      test(`${bad} at ${field} (${collection}): refused as REST refuses it, nothing stored`, async () => {
        const asJson = JSON.parse(
          JSON.stringify({ id: 20, vector }, (_key, v) => (v instanceof Float32Array ? [...v] : v)),
        );
        const reply = await app.send('PUT', `/collections/${collection}/points?wait=true`, {
          points: [asJson],
        });
        assert.equal(reply.status, 400);
        assert.match(reply.json.status.error, /^Format error in JSON body: /);
        const refused = postRefusal(collection, one(20, vector));
        assert.equal(refused.status, 400);
        assert.match(refused.message ?? '', /^Format error in JSON body: .*expected f32/);
        assert.ok(refused.message?.includes(field), `${refused.message} names ${field}`);
        const read = await app.send('POST', `/collections/${collection}/points`, { ids: [20] });
        assert.deepEqual(read.json.result, []);
      });
    }
  }

  test('a view into a shared buffer stores its own components, normalized as the same JSON numbers are', async () => {
    const packed = f32(9, 0.3, -0.4, 1.2, 9);
    const sparse = { indices: [7, 2], values: [0.5, 0.25] };
    applyUpsertBatch(app.engine, 'plain', one(10, packed.subarray(1, 4), { via: 'posted' }));
    applyUpsertBatch(
      app.engine,
      'named',
      one(10, { dense: packed.subarray(1, 4), lexical: sparse }, { via: 'posted' }),
    );
    const numbers = [...packed.subarray(1, 4)];
    await app.send('PUT', '/collections/plain/points?wait=true', {
      points: [{ id: 11, vector: numbers, payload: { via: 'posted' } }],
    });
    await app.send('PUT', '/collections/named/points?wait=true', {
      points: [{ id: 11, vector: { dense: numbers, lexical: sparse }, payload: { via: 'posted' } }],
    });
    for (const collection of ['plain', 'named']) {
      const read = await app.send('POST', `/collections/${collection}/points`, {
        ids: [10, 11],
        with_payload: true,
        with_vector: true,
      });
      const [posted, viaRest] = read.json.result as { payload: unknown; vector: unknown }[];
      assert.deepEqual([posted?.payload, posted?.vector], [viaRest?.payload, viaRest?.vector], collection);
    }
  });
});
