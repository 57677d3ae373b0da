import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { resolveRecallTime } from './resolve-recall-time.js';

const NOW = Date.parse('2026-05-14T12:00:00Z');
const read = (query_text: string) => {
  const { timeOnly, topical } = resolveRecallTime({ bot: 'b', query_text }, 'UTC', () => NOW);
  return { timeOnly, topical };
};

describe('resolveRecallTime: whether a query has a topic', () => {
  test('a long query is read for a topic word past its opening, not only in it', () => {
    // Its opening (the first 500 characters, read first) holds only asking words: the topic comes later.
    const asking = `what did we talk about yesterday? ${'tell me, remember, did we talk? '.repeat(20)}`;
    assert.ok(asking.length > 600);
    assert.deepEqual(read(`${asking} and the piano`), { timeOnly: false, topical: true });
    assert.deepEqual(read(asking), { timeOnly: true, topical: false });
  });

  test("a topic word in a long query's opening decides for all of it", () => {
    const topic = `what did we say about the piano yesterday ${'talk remember '.repeat(100)}`;
    assert.deepEqual(read(topic), { timeOnly: false, topical: true });
    assert.deepEqual(read('what did we talk about yesterday?'), { timeOnly: true, topical: false });
  });
});
