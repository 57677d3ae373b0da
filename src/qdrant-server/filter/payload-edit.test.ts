import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isQdrantError } from '../qdrant-error.js';
import { deletePayloadPaths, inheritsNothing, mergePayload } from './index.js';

/** Edited payloads have no prototype; deepEqual compares prototypes, so compare their JSON. */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const base = () => ({
  a: { b: [{ c: 1 }, { c: 2 }, { d: { e: 3 } }] },
  f: 3,
  g: ['g0', 'g1', 'g2'],
});

describe('mergePayload without a key', () => {
  test('merges top-level keys shallowly', () => {
    assert.deepEqual(plain(mergePayload({ a: { x: 1 }, k: 1 }, { a: { y: 1 } })), { a: { y: 1 }, k: 1 });
  });
  test('null removes a key', () => {
    assert.deepEqual(plain(mergePayload({ a: 1, b: 2 }, { a: null, c: 3 })), { b: 2, c: 3 });
  });
  test('returns a new object and leaves its inputs alone', () => {
    const payload = { a: 1 };
    const values = { b: { c: 1 } };
    const out = mergePayload(payload, values);
    (out.b as { c: number }).c = 2;
    assert.deepEqual(payload, { a: 1 });
    assert.deepEqual(values, { b: { c: 1 } });
  });
  test('a `__proto__` key is stored as data, not as the prototype', () => {
    const out = mergePayload({}, JSON.parse('{"__proto__": {"polluted": true}}'));
    assert.ok(inheritsNothing(out));
    assert.equal('constructor' in out, false);
    assert.deepEqual(Object.keys(out), ['__proto__']);
  });
});

describe('mergePayload with a key', () => {
  const cases: [string, Record<string, unknown>, string, Record<string, unknown>, Record<string, unknown>][] =
    [
      ['one level', base(), 'a', { b: 5 }, { a: { b: 5 }, f: 3, g: ['g0', 'g1', 'g2'] }],
      [
        'an array index',
        base(),
        'a.b[1]',
        { c: 5 },
        { a: { b: [{ c: 1 }, { c: 5 }, { d: { e: 3 } }] }, f: 3, g: ['g0', 'g1', 'g2'] },
      ],
      [
        'every element',
        base(),
        'a.b[]',
        { z: 0 },
        {
          a: {
            b: [
              { c: 1, z: 0 },
              { c: 2, z: 0 },
              { d: { e: 3 }, z: 0 },
            ],
          },
          f: 3,
          g: ['g0', 'g1', 'g2'],
        },
      ],
      ['intermediate objects are created', {}, 'key1.key2', { c: 1 }, { key1: { key2: { c: 1 } } }],
      [
        'a missing index sets nothing but creates the array',
        {},
        'key1.key2[3]',
        { c: 1 },
        { key1: { key2: [] } },
      ],
      ['a missing array under [] is created empty', {}, 'key1.key2[].key3', { c: 1 }, { key1: { key2: [] } }],
      ['a scalar on the way is replaced', { a: 10 }, 'a.b.c', { x: 1 }, { a: { b: { c: { x: 1 } } } }],
      ['null removes a key at the path', { a: { x: 1, y: 2 } }, 'a', { x: null }, { a: { y: 2 } }],
    ];
  for (const [name, payload, key, values, expected] of cases) {
    test(name, () => assert.deepEqual(plain(mergePayload(payload, values, key)), expected));
  }
  test('does not mutate the stored payload', () => {
    const payload = base();
    mergePayload(payload, { c: 9 }, 'a.b[0]');
    assert.deepEqual(payload, base());
  });
  test('an invalid key is a 400', () => {
    assert.throws(
      () => mergePayload({}, { a: 1 }, 'a b'),
      (e) => isQdrantError(e) && e.status === 400 && e.message.includes("Invalid json path: 'a b'"),
    );
  });
});

describe('deletePayloadPaths', () => {
  const payload = () => ({
    a: 1,
    b: {
      c: 123,
      e: {
        f: [1, 2, 3],
        g: 7,
        i: [
          { j: 1, k: 2 },
          { j: 3, k: 4 },
        ],
      },
    },
  });
  const cases: [string[], unknown][] = [
    [['a'], { b: payload().b }],
    [
      ['b.c', 'b.e.f'],
      {
        a: 1,
        b: {
          e: {
            g: 7,
            i: [
              { j: 1, k: 2 },
              { j: 3, k: 4 },
            ],
          },
        },
      },
    ],
    [['b.e.i[0].j'], { a: 1, b: { c: 123, e: { f: [1, 2, 3], g: 7, i: [{ k: 2 }, { j: 3, k: 4 }] } } }],
    [['b.e.i[].k'], { a: 1, b: { c: 123, e: { f: [1, 2, 3], g: 7, i: [{ j: 1 }, { j: 3 }] } } }],
    [['b.e.i[]'], { a: 1, b: { c: 123, e: { f: [1, 2, 3], g: 7, i: [] } } }],
    [['b.e.f[1]'], payload()], // deleting by index is not supported, as in Qdrant
    [['missing', 'b.e.l', 'a.x'], payload()],
  ];
  for (const [paths, expected] of cases) {
    test(`delete ${paths.join(', ')}`, () =>
      assert.deepEqual(plain(deletePayloadPaths(payload(), paths)), expected));
  }
  test('returns a new object', () => {
    const p = payload();
    deletePayloadPaths(p, ['b.c']);
    assert.deepEqual(p, payload());
  });
  test('an invalid path is a 400', () => {
    assert.throws(
      () => deletePayloadPaths({}, ['a..b']),
      (e) => isQdrantError(e) && e.status === 400,
    );
  });
});
