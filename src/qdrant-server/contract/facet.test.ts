/** @module Contract: `POST /facet`, value counts of an indexed key (tests/openapi/test_facets.py semantics). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, expectOk } from './expect-envelope.js';
import { seedCollection } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

const v = [1, 0];
const U1 = 'a64a8051-3ee7-4881-8bc6-691d25c70d54';
const U2 = '7cb46fb3-e348-4762-93ad-7fb983d2b85e';

describe('facet', () => {
  let target: ContractTarget;
  let name: string;
  const facet = async (body: object) =>
    expectOk(await target.http('POST', `/collections/${name}/facet`, body)).hits;
  before(async () => {
    target = await openTarget();
    name = await seedCollection(
      target,
      'facet',
      [
        { id: 1, vector: v, payload: { city: ['Berlin', 'Berlin', 'London'], n: 3, u: U1, ok: true } },
        { id: 2, vector: v, payload: { city: 'Berlin', n: 3, u: U1.toUpperCase(), ok: false } },
        { id: 3, vector: v, payload: { city: 'Moscow', n: 1, u: U2, ok: true } },
        { id: 4, vector: v, payload: { city: 'London', n: 2.5, u: 'not-a-uuid', ok: 'yes' } },
        { id: 5, vector: v, payload: { city: 5 } },
      ],
      2,
    );
    for (const [field, schema] of [
      ['city', 'keyword'],
      ['n', 'integer'],
      ['u', 'uuid'],
      ['ok', 'bool'],
    ]) {
      expectOk(
        await target.http('PUT', `/collections/${name}/index?wait=true`, {
          field_name: field,
          field_schema: schema,
        }),
      );
    }
  });
  after(() => target.close());

  test('counts points per value, by count then value, each point once per value', async () => {
    assert.deepEqual(await facet({ key: 'city' }), [
      { value: 'Berlin', count: 2 },
      { value: 'London', count: 2 },
      { value: 'Moscow', count: 1 },
    ]);
    assert.deepEqual(await facet({ key: 'n' }), [
      { value: 3, count: 2 },
      { value: 1, count: 1 },
    ]);
    assert.deepEqual(await facet({ key: 'u' }), [
      { value: U1, count: 2 },
      { value: U2, count: 1 },
    ]);
    assert.deepEqual(await facet({ key: 'ok' }), [
      { value: true, count: 2 },
      { value: false, count: 1 },
    ]);
  });

  test('limit and filter apply', async () => {
    assert.deepEqual(await facet({ key: 'city', limit: 1 }), [{ value: 'Berlin', count: 2 }]);
    assert.deepEqual(
      await facet({ key: 'city', filter: { must: [{ key: 'ok', match: { value: true } }] } }),
      [
        { value: 'Berlin', count: 1 },
        { value: 'London', count: 1 },
        { value: 'Moscow', count: 1 },
      ],
    );
  });

  test('a key without a map index is a 400 naming it', async () => {
    expectError(
      await target.http('POST', `/collections/${name}/facet`, { key: 'missing' }),
      400,
      /^Wrong input: No appropriate index for faceting: `missing`/,
    );
  });
});
