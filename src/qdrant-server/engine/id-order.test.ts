/** @module Tests that scroll's id order stays exactly the table's ids, sorted, through inserts, rewrites, removals and writes during a refresh. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../runtime/seeded-random.js';
import { comparePointIds, type PointId } from './point-id.js';
import { type PointEntry, PointTable } from './point-table.js';

const NO_VECTORS = { dense: new Map(), sparse: new Map() };

/** The ids a reader of the order sees: each entry resolved to the point holding its id now. */
async function readIds(table: PointTable): Promise<PointId[]> {
  const ids: PointId[] = [];
  for (const stale of await table.idOrder.list()) {
    const entry = table.getByKey(stale.key);
    if (entry !== undefined) ids.push(entry.id);
  }
  return ids;
}

function expectedIds(table: PointTable): PointId[] {
  return [...table.values()].map((entry: PointEntry) => entry.id).sort(comparePointIds);
}

test('the id order follows every kind of write, also writes made while it refreshes', async () => {
  const random = seededRandom(3);
  const table = new PointTable(new Map(), []);
  const randomId = (): PointId =>
    random() < 0.8
      ? Math.floor(random() * 20_000)
      : `00000000-0000-4000-8000-${String(Math.floor(random() * 1e6)).padStart(12, '0')}`;
  const write = () => {
    const roll = random();
    const id = randomId();
    const existing = table.get(id);
    if (roll < 0.3 && existing !== undefined) table.delete(existing);
    else table.put(id, NO_VECTORS, { roll }, 0);
  };
  // Grows in order first (the append path), then anything goes.
  for (let id = 0; id < 6000; id++) table.put(id, NO_VECTORS, {}, 0);
  assert.deepEqual(await readIds(table), expectedIds(table));
  for (let round = 0; round < 40; round++) {
    const writes = round % 4 === 0 ? 300 : Math.floor(random() * 20);
    for (let i = 0; i < writes; i++) write();
    const reading = readIds(table);
    // Made after the read began: it may or may not see them, but must list no id twice and none that never was.
    if (round % 3 === 0) for (let i = 0; i < 50; i++) write();
    const seen = await reading;
    assert.equal(new Set(seen.map(String)).size, seen.length, `round ${round}: no id twice`);
    assert.deepEqual(await readIds(table), expectedIds(table), `round ${round}`);
  }
});
