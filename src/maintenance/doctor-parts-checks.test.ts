import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type DoctorBench, startDoctorBench } from '../cli/commands/test-support/doctor-bench.js';

let bench: DoctorBench;
before(async () => {
  bench = await startDoctorBench();
});
after(() => bench.close());

const createParts = (name: string) =>
  bench.client.createCollection(name, {
    vectors: { dense: { size: 64, distance: 'Cosine' } },
    sparse_vectors: { bm25: { modifier: 'idf' } },
  });

test('doctor reports parts whose collection was deleted, with how to remove them, until they go', async () => {
  const setup = bench.setup();
  const parts = `${setup.collection}__parts`;
  await createParts(parts);
  const orphaned = await bench.doctor(setup.config);
  assert.equal(orphaned.code, 1, orphaned.out);
  const escaped = parts.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  assert.match(
    orphaned.out,
    new RegExp(
      `FAIL {2}parts of deleted collections: ${escaped} still hold the text of memories whose collection was deleted\\n` +
        ` {6}fix: Start \`memory-pool serve\`: it deletes them when it starts\\. Or delete them now: curl -X DELETE \\S+/collections/${escaped}`,
    ),
  );

  await bench.client.createCollection(setup.collection, { vectors: { size: 64, distance: 'Cosine' } });
  const whole = await bench.doctor(setup.config);
  assert.match(
    whole.out,
    /pass {2}parts of deleted collections: none: every parts collection has its collection/,
  );
});

test('the parts of a collection a reembed is building are not reported', async () => {
  const setup = bench.setup();
  const target = `${setup.collection}__m0123abcd`;
  bench.withJournal(setup, (journal) =>
    journal.routes.beginReembed(setup.collection, setup.collection, target, '{}', Date.now()),
  );
  await createParts(`${target}__parts`);
  const building = await bench.doctor(setup.config);
  assert.match(
    building.out,
    /pass {2}parts of deleted collections: none: every parts collection has its collection/,
  );
});
