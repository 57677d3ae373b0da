import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestCollection, openTestStore } from './engine-test-kit.js';
import { PointTable } from './point-table.js';

/** `payload_schema[field].points` of `info`. */
const pointsOf = (info: Record<string, unknown>, field: string) =>
  (info.payload_schema as Record<string, { points: number }>)[field]?.points;

test('describing a collection again counts its indexed points again only after a write', () => {
  const { store } = openTestStore();
  const c = createTestCollection(store, 'described', 2, 'Cosine');
  c.upsert(
    Array.from({ length: 50 }, (_, i) => ({ id: i + 1, vector: [1, i], payload: i % 2 ? { ts: i } : {} })),
  );
  c.createIndex('ts', { type: 'float' });
  assert.equal(pointsOf(c.info(), 'ts'), 25);
  const walk = PointTable.prototype.values;
  let walks = 0;
  PointTable.prototype.values = function (this: PointTable) {
    walks++;
    return walk.call(this);
  };
  try {
    assert.equal(pointsOf(c.info(), 'ts'), 25);
    assert.equal(walks, 0, 'a describe without a write walked every point');
    c.upsert([{ id: 2, vector: [1, 2], payload: { ts: 'late' } }]);
    c.setPayload({ ids: [3] }, { ts: 7 });
    assert.equal(pointsOf(c.info(), 'ts'), 25);
    c.deletePoints({ ids: [6, 7] });
    assert.equal(pointsOf(c.info(), 'ts'), 24);
    c.createIndex('ts', { type: 'keyword' });
    assert.equal(pointsOf(c.info(), 'ts'), 1);
  } finally {
    PointTable.prototype.values = walk;
  }
});
