import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isQdrantError } from '../qdrant-error.js';
import { assertJsonPath, valuesAtPath } from './index.js';
import { formatJsonPath, parseJsonPath } from './json-path.js';

describe('JSON path grammar', () => {
  const valid = [
    'a',
    'foo_123-bar',
    'Müesli',
    '城市',
    'a.b.c',
    'a[0]',
    'a[]',
    'a[].b',
    'arr1[].arr2[].a',
    '"my key"',
    'a."b c".d',
    'foo[1][50].bar-baz[]."qux[.]quux"',
  ];
  for (const path of valid) {
    test(`accepts ${path}`, () => assertJsonPath(path));
  }
  const invalid = [
    '',
    'my key',
    'a.',
    '.a',
    'a..b',
    'a[x]',
    'a[',
    'a]',
    '[0]',
    'a.b c',
    '"a',
    'a$',
    '"a\\"b"',
  ];
  for (const path of invalid) {
    test(`rejects ${JSON.stringify(path)} with 400 Invalid json path`, () => {
      assert.throws(
        () => assertJsonPath(path),
        (e) =>
          isQdrantError(e) &&
          e.status === 400 &&
          e.message === `Format error in JSON body: Invalid json path: '${path}'`,
      );
    });
  }
  test('formats back, quoting keys that need it', () => {
    assert.equal(formatJsonPath(parseJsonPath('a."b c"[0][]."d"')), 'a."b c"[0][].d');
  });
});

describe('multi-value lookup', () => {
  const payload = {
    a: { b: [{ c: 1 }, { c: 2 }, { d: { e: 3 } }] },
    f: 3,
    g: ['g0', 'g1', 'g2'],
    arr: [{ a: [1, 2, 3] }, { a: 4 }, { b: 5 }],
    n: null,
    nn: [null, null],
    empty: [],
    'my key': 'spaced',
  };
  const cases: [string, unknown[]][] = [
    ['a.b[].c', [1, 2]],
    ['a.b[0]', [{ c: 1 }]],
    ['a.b[1].c', [2]],
    ['a.b[3]', []],
    ['a.b.c', []], // object steps do not look inside arrays
    ['g[2]', ['g2']],
    ['g', [['g0', 'g1', 'g2']]], // a final array is one value
    ['arr[].a', [[1, 2, 3], 4]],
    ['arr[].a[]', [1, 2, 3]],
    ['n', [null]],
    ['n[]', []],
    ['nn[]', [null, null]],
    ['empty', [[]]],
    ['empty[]', []],
    ['missing', []],
    ['"my key"', ['spaced']],
    ['constructor', []], // inherited object members are not payload
    ['a.toString', []],
  ];
  for (const [path, expected] of cases) {
    test(`${path} → ${JSON.stringify(expected)}`, () =>
      assert.deepEqual(valuesAtPath(payload, path), expected));
  }
});
