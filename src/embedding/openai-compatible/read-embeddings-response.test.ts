/** @module Tests for reading embeddings responses: index order, base64 vectors and precise malformed errors. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readEmbeddingsResponse } from './read-embeddings-response.js';

const source = 'test server';

describe('readEmbeddingsResponse', () => {
  test('orders by index and falls back to array order when no item has one', () => {
    const byIndex = readEmbeddingsResponse(
      {
        data: [
          { index: 1, embedding: [2] },
          { index: 0, embedding: [1] },
        ],
      },
      2,
      source,
    );
    assert.deepEqual(
      byIndex.map((vector) => [...vector]),
      [[1], [2]],
    );
    const byPosition = readEmbeddingsResponse({ data: [{ embedding: [1] }, { embedding: [2] }] }, 2, source);
    assert.deepEqual(
      byPosition.map((vector) => [...vector]),
      [[1], [2]],
    );
  });

  test('decodes base64 float32 vectors', () => {
    const encoded = Buffer.from(new Float32Array([0.5, -1]).buffer).toString('base64');
    const [vector] = readEmbeddingsResponse({ data: [{ index: 0, embedding: encoded }] }, 1, source);
    assert.deepEqual([...vector!], [0.5, -1]);
  });

  test('refuses base64 that decodes to NaN or infinity, naming the position', () => {
    const encoded = Buffer.from(new Float32Array([0.5, Number.NaN]).buffer).toString('base64');
    assert.throws(
      () => readEmbeddingsResponse({ data: [{ index: 0, embedding: encoded }] }, 1, source),
      /data\[0\]\.embedding\[1\] decodes to NaN, not a finite number/,
    );
  });

  test('names duplicated or out-of-range indexes and non-numbers', () => {
    const cases: Array<[unknown, RegExp]> = [
      [
        {
          data: [
            { index: 0, embedding: [1] },
            { index: 0, embedding: [1] },
          ],
        },
        /index 0 appears more than once/,
      ],
      [
        {
          data: [
            { index: 0, embedding: [1] },
            { index: 5, embedding: [1] },
          ],
        },
        /data\[1\]\.index is 5, expected 0\.\.1/,
      ],
      [{ data: [{ index: 0, embedding: [1] }, { embedding: [1] }] }, /some items have an "index"/],
      [
        {
          data: [
            { index: 0, embedding: [1, 'x'] },
            { index: 1, embedding: [1] },
          ],
        },
        /data\[0\]\.embedding\[1\] is "x"/,
      ],
      [[], /not a JSON object/],
    ];
    for (const [body, message] of cases) {
      assert.throws(() => readEmbeddingsResponse(body, 2, source), message);
    }
  });
});
