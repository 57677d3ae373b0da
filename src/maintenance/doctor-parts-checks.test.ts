import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { createMemoryPointStore } from '../store/test-support/memory-point-store.js';
import { checkOrphanParts } from './doctor-parts-checks.js';
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
  // As serve records parts it creates: only parts this journal knows are memory-pool's.
  await bench.withJournal(setup, (journal) =>
    journal.partsIndexes.recordStarted(setup.collection, true, Date.now()),
  );
  const orphaned = await bench.doctor(setup.config);
  assert.equal(orphaned.code, 1, orphaned.out);
  const escaped = parts.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  assert.match(
    orphaned.out,
    new RegExp(
      `FAIL {2}parts of deleted collections: ${escaped} still hold the text of memories whose collection was deleted\\n` +
        ` {6}fix: Start \`memory-pool serve\`: it deletes them when it starts\\. Or delete them now: curl -X DELETE '\\S+/collections/${escaped}'`,
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
  await bench.withJournal(setup, (journal) =>
    journal.routes.beginReembed(setup.collection, setup.collection, target, '{}', Date.now()),
  );
  await createParts(`${target}__parts`);
  const building = await bench.doctor(setup.config);
  assert.match(
    building.out,
    /pass {2}parts of deleted collections: none: every parts collection has its collection/,
  );
});

test('parts this memory-pool never recorded (another app on the same Qdrant) are only mentioned', async () => {
  const setup = bench.setup();
  const foreign = `${setup.collection}_rag__parts`;
  await createParts(foreign);
  const found = await bench.doctor(setup.config);
  assert.match(
    found.out,
    new RegExp(
      // The bench's store is shared: other tests' parts may be listed beside it.
      `pass {2}parts of deleted collections: none: every parts collection has its collection \\([^)]*${foreign}[^)]* a parts name but w[^)]* not written by this memory-pool: left alone\\)`,
    ),
  );
  await bench.client.deleteCollection(foreign);
});

test("the suggested delete names only that collection: URL-encoded and shell-quoted ('#', '&', a quote)", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'doctor-parts-'));
  const journal = openSqliteJournal(dir);
  try {
    const store = createMemoryPointStore();
    for (const collection of ['mem_c#', "mem_tom&jerry's"]) {
      await store.createHybridCollection(`${collection}__parts`, 64);
      await journal.partsIndexes.recordStarted(collection, true, Date.now());
    }
    const check = await checkOrphanParts(store, journal, 'http://127.0.0.1:6333');
    assert.match(
      check.fix ?? '',
      /curl -X DELETE 'http:\/\/127\.0\.0\.1:6333\/collections\/mem_c%23__parts'; curl -X DELETE 'http:\/\/127\.0\.0\.1:6333\/collections\/mem_tom%26jerry'\\''s__parts' \(/,
    );
  } finally {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
