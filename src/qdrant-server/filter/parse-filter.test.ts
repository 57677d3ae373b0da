import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isQdrantError } from '../qdrant-error.js';
import { parseFilter } from './index.js';

/** Asserts that parsing fails with this status and a message containing every fragment. */
function assertRejects(json: unknown, status: number, ...fragments: string[]): void {
  assert.throws(
    () => parseFilter(json),
    (e) => {
      assert.ok(isQdrantError(e), `expected a QdrantError, got ${String(e)}`);
      assert.equal(e.status, status, e.message);
      for (const f of fragments) assert.ok(e.message.includes(f), `"${e.message}" lacks "${f}"`);
      return true;
    },
  );
}

describe('parseFilter structure', () => {
  test('null and undefined mean no filter', () => {
    assert.equal(parseFilter(null), undefined);
    assert.equal(parseFilter(undefined), undefined);
  });

  test('a clause takes one condition, a list, or null', () => {
    const one = parseFilter({ must: { key: 'a', match: { value: 1 } }, should: null });
    assert.equal(one?.must?.length, 1);
    assert.equal(one?.should, null);
    const list = parseFilter({ must_not: [{ has_id: [1] }, { has_vector: '' }] });
    assert.deepEqual(
      list?.mustNot?.map((c) => c.kind),
      ['has_id', 'has_vector'],
    );
  });

  test('conditions of every kind are recognized', () => {
    const filter = parseFilter({
      must: [
        { key: 'a', range: { gte: 1 } },
        { is_empty: { key: 'b' } },
        { is_null: { key: 'c' } },
        { has_id: [1, '550E8400-E29B-41D4-A716-446655440000'] },
        { nested: { key: 'd', filter: { must: { key: 'e', match: { value: true } } } } },
        { should: [{ key: 'f', match: { text: 'x' } }] },
        {},
      ],
    });
    assert.deepEqual(
      filter?.must?.map((c) => c.kind),
      ['field', 'is_empty', 'is_null', 'has_id', 'nested', 'filter', 'filter'],
    );
    const hasId = filter?.must?.[3];
    assert.deepEqual(hasId?.kind === 'has_id' && hasId.ids, [1, '550e8400-e29b-41d4-a716-446655440000']);
  });

  test('string bounds make a datetime range in microseconds', () => {
    const range = parseFilter({ must: { key: 'd', range: { gt: '2014-01-01T00:00:00Z', lt: null } } })
      ?.must?.[0];
    assert.deepEqual(range?.kind === 'field' && range.range, {
      datetime: true,
      bounds: { gt: Date.UTC(2014, 0, 1) * 1000 },
    });
  });
});

describe('parseFilter errors', () => {
  const format = 'Format error in JSON body: ';
  const cases: [string, unknown, number, ...string[]][] = [
    ['unknown filter key', { must: [], foo: 1 }, 400, format, 'unknown field `foo`'],
    [
      'non-string key',
      { must: [{ key: 5, match: { value: 1 } }] },
      400,
      "Filter condition 'key' must be a string",
    ],
    [
      'null key',
      { must: { key: null, match: { value: 1 } } },
      400,
      "Filter condition 'key' must be a string",
    ],
    ['invalid key path', { must: { key: 'a b', match: { value: 1 } } }, 400, "Invalid json path: 'a b'"],
    ['float match value', { must: { key: 'a', match: { value: 1.5 } } }, 400, format, 'MatchInterface'],
    ['mixed any list', { must: { key: 'a', match: { any: ['x', 1] } } }, 400, format, 'MatchInterface'],
    ['float any list', { must: { key: 'a', match: { any: [1.5] } } }, 400, format],
    [
      'invalid datetime bound',
      { must: { key: 'a', range: { gte: '20150201' } } },
      400,
      `${format}'20150201' does not match accepted datetime format (RFC3339). Example: 2014-01-01T00:00:00Z`,
    ],
    [
      'number bound in a datetime range',
      { must: { key: 'a', range: { gte: '2015-02-01', lt: 5 } } },
      400,
      format,
    ],
    ['bool range bound', { must: { key: 'a', range: { gt: true } } }, 400, format],
    ['unknown condition', { must: [{ foo: 1 }] }, 400, format, 'Expected some form of condition'],
    ['condition that is not an object', { should: [5] }, 400, format],
    ['bad point id', { must: { has_id: [-1] } }, 400, format, 'not a valid point ID'],
    ['negative min_count', { min_should: { conditions: [], min_count: -1 } }, 400, format],
    ['missing min_count', { min_should: { conditions: [] } }, 400, 'missing field `min_count`'],
    ['filter that is not an object', [1], 400, format],
    [
      'open geo polygon',
      {
        must: {
          key: 'loc',
          geo_polygon: {
            exterior: {
              points: [
                { lon: 0, lat: 0 },
                { lon: 1, lat: 0 },
                { lon: 1, lat: 1 },
              ],
            },
          },
        },
      },
      400,
      format,
      'polygon invalid, the size must be at least 4, got 3',
    ],
    [
      'geo point out of range',
      { must: { key: 'loc', geo_radius: { center: { lon: 200, lat: 0 }, radius: 1 } } },
      400,
      format,
      'Wrong format of GeoPoint payload',
    ],
    [
      'slice index past total',
      { must: { slice: { total: 2, index: 2 } } },
      422,
      'Slice index must be less than the total number of slices',
    ],
    ['slice of total 0', { must: { slice: { total: 0, index: 0 } } }, 400, format],
    [
      'only a key',
      { must: [{ key: 'a' }] },
      422,
      'Validation error in JSON body',
      'At least one field condition must be specified',
    ],
    [
      'only a key with null parts',
      { must: { key: 'a', match: null } },
      422,
      'At least one field condition must be specified',
    ],
    [
      'min_count 0',
      { min_should: { conditions: [{ has_id: [1] }], min_count: 0 } },
      422,
      'filter.min_should.min_count: min_count must be greater than 0',
    ],
  ];
  for (const [name, json, status, ...fragments] of cases) {
    test(`${name} → ${status}`, () => assertRejects(json, status, ...fragments));
  }

  test('format errors win over validation errors anywhere in the filter', () => {
    assertRejects({ must: [{ key: 'a' }, { key: 'b', match: { value: 1.5 } }] }, 400, 'MatchInterface');
  });

  test('validation errors name the condition and can be placed under a request path', () => {
    assert.throws(
      () => parseFilter({ should: [{ has_id: [1] }, { key: 'a' }] }, 'search_request.filter'),
      (e) =>
        isQdrantError(e) &&
        e.message.includes('search_request.filter.should[1]: At least one field condition'),
    );
  });

  test('unknown extra keys in a field condition are ignored, as Qdrant does', () => {
    assert.equal(parseFilter({ must: { key: 'a', match: { value: 1 }, boost: 2 } })?.must?.length, 1);
  });
});
