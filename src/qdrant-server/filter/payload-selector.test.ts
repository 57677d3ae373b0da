import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isQdrantError } from '../qdrant-error.js';
import { parsePayloadSelector, selectPayload } from './index.js';

const payload = {
  city: 'Berlin',
  country: {
    name: 'Germany',
    capital: 'Berlin',
    cities: [
      { name: 'Berlin', population: 3.7, sightseeing: ['Brandenburg Gate'] },
      { name: 'Munich', population: 1.5 },
    ],
  },
  tags: ['a', 'b'],
};

describe('parsePayloadSelector', () => {
  test('absent or null gives the endpoint default', () => {
    assert.deepEqual(parsePayloadSelector(undefined, true), { kind: 'all' });
    assert.deepEqual(parsePayloadSelector(null, false), { kind: 'none' });
  });
  test('the accepted forms', () => {
    assert.deepEqual(parsePayloadSelector(true, false), { kind: 'all' });
    assert.deepEqual(parsePayloadSelector(false, true), { kind: 'none' });
    assert.deepEqual(parsePayloadSelector(['a', 'b.c'], false), { kind: 'include', paths: ['a', 'b.c'] });
    assert.deepEqual(parsePayloadSelector({ include: ['a'] }, false), { kind: 'include', paths: ['a'] });
    assert.deepEqual(parsePayloadSelector({ exclude: [] }, false), { kind: 'exclude', paths: [] });
  });
  for (const bad of [5, 'city', [1], ['a b'], { include: ['a'], exclude: ['b'] }, { only: ['a'] }, {}]) {
    test(`rejects ${JSON.stringify(bad)} with a 400`, () => {
      assert.throws(
        () => parsePayloadSelector(bad, true),
        (e) =>
          isQdrantError(e) &&
          e.status === 400 &&
          e.message.includes('Expected a boolean, an array of strings'),
      );
    });
  }
});

describe('selectPayload', () => {
  const select = (json: unknown) => selectPayload(payload, parsePayloadSelector(json, false));
  test('none leaves the payload out, all returns it whole', () => {
    assert.equal(select(false), undefined);
    assert.deepEqual(select(true), payload);
  });
  test('an empty include list gives {}', () => assert.deepEqual(select([]), {}));
  test('include through arrays keeps only the named key in every element', () => {
    assert.deepEqual(select(['country.cities[].name']), {
      country: { cities: [{ name: 'Berlin' }, { name: 'Munich' }] },
    });
  });
  test('include of a key keeps its whole subtree; several paths combine', () => {
    assert.deepEqual(select({ include: ['city', 'country.name', 'tags'] }), {
      city: 'Berlin',
      country: { name: 'Germany' },
      tags: ['a', 'b'],
    });
  });
  test('include of a missing key gives {}', () => assert.deepEqual(select(['nothing']), {}));
  test('exclude removes a path and everything under it', () => {
    assert.deepEqual(select({ exclude: ['country.cities[].population', 'city'] }), {
      country: {
        name: 'Germany',
        capital: 'Berlin',
        cities: [{ name: 'Berlin', sightseeing: ['Brandenburg Gate'] }, { name: 'Munich' }],
      },
      tags: ['a', 'b'],
    });
  });
  test('exclude of `tags[]` empties the array but keeps the key', () => {
    assert.deepEqual(select({ exclude: ['tags[]', 'country'] }), { city: 'Berlin', tags: [] });
  });
  test('the stored payload is not changed', () => {
    const before = structuredClone(payload);
    select({ exclude: ['country'] });
    assert.deepEqual(payload, before);
  });
});
