import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PointId } from '../engine/point-id.js';
import {
  type FilterablePoint,
  type IndexLookup,
  type TextIndexParams,
  compileFilter,
  parseFilter,
} from './index.js';

type Row = [id: PointId, payload: Record<string, unknown>, hasVector?: boolean];

const noIndexes: IndexLookup = { textIndex: () => undefined };

function points(rows: readonly Row[]): FilterablePoint[] {
  return rows.map(([id, payload, hasVector = true]) => ({
    id,
    payload,
    hasVector: (name) => hasVector && name === '',
  }));
}

/** The ids of `rows` that `filter` selects. */
function select(filter: unknown, rows: readonly Row[], indexes: IndexLookup = noIndexes): PointId[] {
  const predicate = compileFilter(parseFilter(filter), indexes);
  return points(rows)
    .filter(predicate)
    .map((p) => p.id);
}

// The basic collection of Qdrant's openapi tests, reduced to the `city` key.
const cities: Row[] = [
  [1, { city: 'Berlin', count: 0 }],
  [2, { city: ['Berlin', 'London'], count: 1 }],
  [3, { city: ['Berlin', 'Moscow'] }],
  [4, { city: ['London', 'Moscow'] }],
  [5, { count: 5 }],
  [6, {}],
  [7, { city: null }],
  [8, { city: [] }],
  [9, { city: [null] }],
];

describe('is_empty and is_null', () => {
  const cases: [string, unknown, PointId[]][] = [
    ['is_empty condition', { must: { is_empty: { key: 'city' } } }, [5, 6, 7, 8]],
    ['is_empty field form', { must: { key: 'city', is_empty: true } }, [5, 6, 7, 8]],
    ['is_empty:false', { must: { key: 'city', is_empty: false } }, [1, 2, 3, 4, 9]],
    ['is_null condition', { must: { is_null: { key: 'city' } } }, [7]],
    ['is_null field form also counts [null]', { must: { key: 'city', is_null: true } }, [7, 9]],
    ['is_null:false keeps missing fields', { must: { key: 'city', is_null: false } }, [1, 2, 3, 4, 5, 6, 8]],
    ['must_not is_null', { must_not: { is_null: { key: 'city' } } }, [1, 2, 3, 4, 5, 6, 8, 9]],
    // `city[]` expands arrays only: a bare null yields no value there (json_path value_get), so only [null] is null.
    ['is_null on city[]', { must: { is_null: { key: 'city[]' } } }, [9]],
    // A plain string under `city[]` is not an array either, so it yields no value and counts as empty.
    ['is_empty on city[]', { must: { is_empty: { key: 'city[]' } } }, [1, 5, 6, 7, 8, 9]],
  ];
  for (const [name, filter, expected] of cases) {
    test(`${name} → ${JSON.stringify(expected)}`, () => assert.deepEqual(select(filter, cities), expected));
  }
});

describe('filter structure', () => {
  const cases: [string, unknown, PointId[]][] = [
    ['{} matches everything', {}, [1, 2, 3, 4, 5, 6, 7, 8, 9]],
    ['must [] matches everything', { must: [] }, [1, 2, 3, 4, 5, 6, 7, 8, 9]],
    ['must_not [] matches everything', { must_not: [] }, [1, 2, 3, 4, 5, 6, 7, 8, 9]],
    ['should [] matches nothing', { should: [] }, []],
    [
      'should: any condition',
      { should: [{ has_id: [1] }, { key: 'city', match: { value: 'Moscow' } }] },
      [1, 3, 4],
    ],
    [
      'clauses are ANDed',
      {
        must: { key: 'city', match: { value: 'Berlin' } },
        must_not: { key: 'city', match: { value: 'London' } },
      },
      [1, 3],
    ],
    [
      'min_should counts matching conditions',
      {
        min_should: {
          conditions: [
            { key: 'city', match: { value: 'Berlin' } },
            { key: 'city', match: { value: 'London' } },
            { key: 'city', match: { value: 'Moscow' } },
          ],
          min_count: 2,
        },
      },
      [2, 3, 4],
    ],
    [
      'min_count above the condition count matches nothing',
      { min_should: { conditions: [{ has_id: [1] }], min_count: 2 } },
      [],
    ],
    [
      'a nested filter as a condition',
      {
        should: [
          {
            must: [
              { key: 'city', match: { value: 'Berlin' } },
              { key: 'count', range: { gte: 1 } },
            ],
          },
          { has_id: [5] },
        ],
      },
      [2, 5],
    ],
    [
      'min_should inside must_not',
      {
        must_not: {
          min_should: {
            conditions: [{ has_id: [1] }, { has_id: [2] }, { key: 'count', match: { any: [1, 5] } }],
            min_count: 2,
          },
        },
      },
      [1, 3, 4, 5, 6, 7, 8, 9],
    ],
  ];
  for (const [name, filter, expected] of cases) {
    test(`${name} → ${JSON.stringify(expected)}`, () => assert.deepEqual(select(filter, cities), expected));
  }
});

describe('match', () => {
  const typed: Row[] = [
    [1, { v: 5 }],
    [2, { v: '5' }],
    [3, { v: 5.5 }],
    [4, { v: true }],
    [5, { v: [1, 5] }],
    [6, { v: [[5]] }],
    [7, { v: null }],
    [8, {}],
    [9, { v: { x: 5 } }],
    [10, { v: 'Five' }],
  ];
  const cases: [string, unknown, PointId[]][] = [
    ['integer value matches integers only', { value: 5 }, [1, 5]],
    ['string value matches strings only', { value: '5' }, [2]],
    ['bool value', { value: true }, [4]],
    ['strings are case-sensitive', { value: 'five' }, []],
    ['any integers', { any: [5, 7] }, [1, 5]],
    ['any strings', { any: ['5', 'Five'] }, [2, 10]],
    ['any [] matches nothing', { any: [] }, []],
    [
      'except integers: other types count as not listed; null and missing fail',
      { except: [5] },
      [2, 3, 4, 5, 6, 9, 10],
    ],
    ['except strings', { except: ['5', 'Five'] }, [1, 3, 4, 5, 6, 9]],
    ['except [] matches every non-null value', { except: [] }, [1, 2, 3, 4, 5, 6, 9, 10]],
    [
      'except every value in an array fails only when all are listed',
      { except: [1, 5] },
      [2, 3, 4, 6, 9, 10],
    ],
  ];
  for (const [name, match, expected] of cases) {
    test(`${name} → ${JSON.stringify(expected)}`, () =>
      assert.deepEqual(select({ must: { key: 'v', match } }, typed), expected));
  }
});

describe('match.text without a text index is a case-sensitive substring test', () => {
  const rows: Row[] = [
    [1, { ids: 'Alice_1700000000000_5,Alice_1700000000001_6' }],
    [2, { ids: 'Alice_1700000000000_50' }],
    [3, { ids: ['x', 'Bob_1700000000000_5'] }],
    [4, { ids: 42 }],
    [5, {}],
  ];
  const cases: [string, unknown, PointId[]][] = [
    ['exact id', { text: 'Alice_1700000000000_5' }, [1, 2]],
    ['longer id', { text: 'Alice_1700000000000_50' }, [2]],
    ['other case', { text: 'alice_1700000000000_5' }, []],
    ['tokens out of order do not match', { text: 'Alice_1700000000001_5' }, []],
    ['array elements are searched', { text: 'Bob' }, [3]],
    ['empty text matches every string', { text: '' }, [1, 2, 3]],
    ['text_any: any whitespace piece', { text_any: 'nobody Bob' }, [3]],
    ['text_any with only whitespace matches nothing', { text_any: '  ' }, []],
    ['phrase is a substring test too', { phrase: '_6' }, [1]],
    ['prefix is starts-with', { prefix: 'Alice_1700000000000_5' }, [1, 2]],
  ];
  for (const [name, match, expected] of cases) {
    test(`${name} → ${JSON.stringify(expected)}`, () =>
      assert.deepEqual(select({ must: { key: 'ids', match } }, rows), expected));
  }
});

function textIndexOn(key: string, params: Partial<TextIndexParams> = {}): IndexLookup {
  const full: TextIndexParams = { tokenizer: 'word', lowercase: true, ...params };
  return { textIndex: (k) => (k === key ? full : undefined) };
}

describe('match.text with a text index judges by tokens', () => {
  const value = 'Alice_1700000000000_5,Alice_1700000000001_6';
  const one: Row[] = [[1, { ids: value }]];
  const word = textIndexOn('ids');
  const matching = [
    'Alice_1700000000000_5',
    'Alice_1700000000001_5',
    'alice_1700000000000_6',
    'ALICE 5',
    '6',
  ];
  for (const text of matching) {
    test(`word tokenizer: ${text} matches`, () =>
      assert.deepEqual(select({ must: { key: 'ids', match: { text } } }, one, word), [1]));
  }
  for (const text of ['Bob_1700000000000_5', 'lice_1700000000000_5', '', ',,_']) {
    test(`word tokenizer: ${JSON.stringify(text)} does not match`, () =>
      assert.deepEqual(select({ must: { key: 'ids', match: { text } } }, one, word), []));
  }
  test('the index only applies to its exact key', () => {
    assert.deepEqual(
      select({ must: { key: 'ids', match: { text: 'ALICE 5' } } }, one, textIndexOn('other')),
      [],
    );
  });
  test('lowercase:false keeps case', () => {
    const index = textIndexOn('ids', { lowercase: false });
    assert.deepEqual(select({ must: { key: 'ids', match: { text: 'alice 5' } } }, one, index), []);
    assert.deepEqual(select({ must: { key: 'ids', match: { text: 'Alice 5' } } }, one, index), [1]);
  });
  test('whitespace tokenizer keeps the whole id list as one token', () => {
    const index = textIndexOn('ids', { tokenizer: 'whitespace' });
    assert.deepEqual(
      select({ must: { key: 'ids', match: { text: 'Alice_1700000000000_5' } } }, one, index),
      [],
    );
    assert.deepEqual(select({ must: { key: 'ids', match: { text: value.toUpperCase() } } }, one, index), [1]);
  });
  test('text_any needs one token, phrase needs them in order', () => {
    assert.deepEqual(select({ must: { key: 'ids', match: { text_any: 'bob 6' } } }, one, word), [1]);
    assert.deepEqual(select({ must: { key: 'ids', match: { phrase: '1700000000001 6' } } }, one, word), [1]);
    assert.deepEqual(select({ must: { key: 'ids', match: { phrase: '6 1700000000001' } } }, one, word), []);
  });
  test('prefix tokenizer matches query words as prefixes', () => {
    const robots: Row[] = [
      [1, { t: 'Robot arm' }],
      [2, { t: 'robotics' }],
      [3, { t: 'a ROBOT' }],
      [4, { t: 'bro' }],
    ];
    assert.deepEqual(
      select(
        { must: { key: 't', match: { text: 'ROBO' } } },
        robots,
        textIndexOn('t', { tokenizer: 'prefix' }),
      ),
      [1, 2, 3],
    );
  });
  test('min_token_len drops short tokens on both sides', () => {
    const index = textIndexOn('ids', { min_token_len: 2 });
    assert.deepEqual(select({ must: { key: 'ids', match: { text: 'alice 5' } } }, one, index), [1]);
    assert.deepEqual(select({ must: { key: 'ids', match: { text: '5' } } }, one, index), []);
  });
  test('prefix match stays a starts-with test on an indexed key', () => {
    assert.deepEqual(select({ must: { key: 'ids', match: { prefix: 'alice' } } }, one, word), []);
  });
});

describe('range', () => {
  const rows: Row[] = [
    [1, { n: 1 }],
    [2, { n: 2.5 }],
    [3, { n: '3' }],
    [4, { n: [0, 10] }],
    [5, { n: null }],
    [6, {}],
    [7, { d: '2023-01-01T00:00:00Z' }],
    [8, { d: '2023-06-15 12:00:00' }],
    [9, { d: '2023-06-15T14:00:00+02:00' }],
    [10, { d: 'not a date' }],
    [11, { d: ['1999-01-01', '2024-01-01'] }],
  ];
  const cases: [string, unknown, PointId[]][] = [
    ['numeric bounds compare numbers only', { key: 'n', range: { gt: 1, lte: 3 } }, [2]],
    ['any array element can pass', { key: 'n', range: { gte: 10 } }, [4]],
    ['null bounds are ignored', { key: 'n', range: { lt: null, gte: 0 } }, [1, 2, 4]],
    ['datetime bounds', { key: 'd', range: { gte: '2023-06-15T12:00:00Z' } }, [8, 9, 11]],
    ['datetime strict bound, zones converted', { key: 'd', range: { gt: '2023-06-15T12:00:00Z' } }, [11]],
    ['date-only bound', { key: 'd', range: { lt: '2023-01-02' } }, [7, 11]],
    ['match OR range on one condition', { key: 'n', match: { value: '3' }, range: { lt: 2 } }, [1, 3, 4]],
  ];
  for (const [name, condition, expected] of cases) {
    test(`${name} → ${JSON.stringify(expected)}`, () =>
      assert.deepEqual(select({ must: condition }, rows), expected));
  }
});

describe('values_count', () => {
  const rows: Row[] = [
    [1, { a: [1, 2, 3] }],
    [2, { a: 'x' }],
    [3, { a: null }],
    [4, {}],
    [5, { a: [] }],
    [6, { a: { b: 1 } }],
  ];
  const cases: [unknown, PointId[]][] = [
    [{ lt: 1 }, [3, 4, 5]], // missing counts 0 (1.19)
    [{ gte: 2 }, [1]],
    [{ gt: 0, lte: 1 }, [2, 6]],
  ];
  for (const [bounds, expected] of cases) {
    test(`${JSON.stringify(bounds)} → ${JSON.stringify(expected)}`, () =>
      assert.deepEqual(select({ must: { key: 'a', values_count: bounds } }, rows), expected));
  }
});

describe('ids, vectors and nested', () => {
  const uuid = '550e8400-e29b-41d4-a716-446655440000';
  const rows: Row[] = [
    [
      1,
      {
        dogs: [
          { name: 'Rex', age: 3 },
          { name: 'Bo', age: 9 },
        ],
      },
      true,
    ],
    [2, { dogs: [{ name: 'Rex', age: 9 }] }, false],
    [uuid, { dogs: { name: 'Rex', age: 3 } }, true],
    [4, { dogs: [[{ name: 'Rex', age: 3 }], 'Rex'] }, true],
  ];
  test('has_id compares UUIDs by value', () => {
    assert.deepEqual(select({ must: { has_id: [2, '550E8400E29B41D4A716446655440000'] } }, rows), [2, uuid]);
    assert.deepEqual(select({ must: { has_id: [] } }, rows), []);
  });
  test('has_vector asks the point for that vector name', () => {
    assert.deepEqual(select({ must: { has_vector: '' } }, rows), [1, uuid, 4]);
    assert.deepEqual(select({ must: { has_vector: 'image' } }, rows), []);
  });
  test('nested: one element must satisfy the whole inner filter', () => {
    const inner = {
      must: [
        { key: 'name', match: { value: 'Rex' } },
        { key: 'age', range: { gt: 5 } },
      ],
    };
    assert.deepEqual(select({ must: { nested: { key: 'dogs', filter: inner } } }, rows), [2]);
    assert.deepEqual(select({ must: { nested: { key: 'dogs[]', filter: inner } } }, rows), [2]);
    // Without nested, the conditions may be met by different elements.
    assert.deepEqual(
      select({ must: inner.must.map((c) => ({ ...c, key: `dogs[].${c.key}` })) }, rows),
      [1, 2],
    );
  });
  test('nested looks at object elements only, and a single object is not an array', () => {
    const filter = {
      must: { nested: { key: 'dogs', filter: { must: { key: 'age', match: { value: 3 } } } } },
    };
    assert.deepEqual(select(filter, rows), [1]);
  });
  test('has_id and has_vector inside nested are always false', () => {
    assert.deepEqual(
      select({ must: { nested: { key: 'dogs', filter: { must: { has_id: [1, 2] } } } } }, rows),
      [],
    );
    assert.deepEqual(
      select({ must: { nested: { key: 'dogs', filter: { must_not: { has_vector: '' } } } } }, rows),
      [1, 2],
    );
  });
  test('a text index on outer[].inner applies inside nested', () => {
    const filter = {
      must: { nested: { key: 'dogs', filter: { must: { key: 'name', match: { text: 'rex' } } } } },
    };
    assert.deepEqual(select(filter, rows), []);
    assert.deepEqual(select(filter, rows, textIndexOn('dogs[].name')), [1, 2]);
  });
});
