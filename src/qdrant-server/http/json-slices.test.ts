/** @module Tests that sliced serialization gives exactly JSON.stringify's text and hands the event loop back between slices. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hasLongArray, MappedList, SLICE_ITEMS, sliceJson, streamPieces } from './json-slices.js';

const points = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: i,
    score: i / 3,
    payload: { t: `p${i}`, u: undefined, v: [1, 2] },
  }));

test('sliced text equals JSON.stringify for results of every shape', () => {
  for (const value of [
    points(3),
    points(SLICE_ITEMS * 3 + 5),
    { points: points(1000), next_page_offset: null, skipped: undefined },
    [points(700), points(2), []],
    [{ points: points(600) }, { points: [] }],
    {
      groups: [
        { id: 'a', hits: points(900) },
        { id: 'b', hits: points(1) },
      ],
    },
    { count: 3 },
    [],
    Array.from({ length: 2000 }, (_, i) => i),
  ]) {
    assert.equal([...sliceJson(value)].join(''), JSON.stringify(value));
  }
});

test('a list formatted as it is serialized gives the text of the formatted array', () => {
  const format = (p: { id: number; score: number }) => ({ id: p.id, doubled: p.score * 2, gone: undefined });
  const mapped = (n: number) => new MappedList(points(n), format);
  for (const value of [
    mapped(3),
    mapped(SLICE_ITEMS * 3 + 5),
    { points: mapped(1000), next_page_offset: 7 },
    [mapped(700), mapped(2), mapped(0)],
    { groups: [{ id: 'a', hits: mapped(900) }] },
  ]) {
    const formatted = JSON.stringify(value, (_key, item) =>
      item instanceof MappedList ? item.toJSON() : item,
    );
    assert.equal([...sliceJson(value)].join(''), formatted);
    assert.equal(JSON.stringify(value), formatted);
  }
  assert.equal(hasLongArray({ points: mapped(SLICE_ITEMS + 1) }), true);
  assert.equal(hasLongArray({ points: mapped(SLICE_ITEMS) }), false);
});

test('only lists of points count as long: a long vector alone does not', () => {
  assert.equal(hasLongArray([{ id: 1, vector: Array.from({ length: 1536 }, () => 0.5) }]), false);
  assert.equal(hasLongArray({ points: points(SLICE_ITEMS + 1) }), true);
  // /points/query/groups: the hits of a group are three levels down.
  assert.equal(hasLongArray({ groups: [{ id: 'a', hits: points(SLICE_ITEMS + 1) }] }), true);
  assert.equal(hasLongArray(points(SLICE_ITEMS)), false);
});

test('the stream yields to timers between slices', async () => {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 0);
  const reader = streamPieces(sliceJson(points(SLICE_ITEMS * 200))).getReader();
  let chunks = 0;
  let text = '';
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks++;
    text += decoder.decode(value);
  }
  clearInterval(timer);
  assert.equal(text, JSON.stringify(points(SLICE_ITEMS * 200)));
  assert.ok(chunks > 1, `${chunks} chunks`);
  assert.ok(ticks > 0, 'a timer ran while the answer was being serialized');
});
