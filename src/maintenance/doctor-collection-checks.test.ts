import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runReembed } from '../cli/commands/reembed-command.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { createQdrantPointStore } from '../store/qdrant/qdrant-point-store.js';
import { withStCollectionLayouts } from '../store/st-hybrid/st-layout-point-store.js';
import { captureOutput } from '../cli/commands/test-support/data-tool-fixture.js';
import { type DoctorBench, startDoctorBench } from '../cli/commands/test-support/doctor-bench.js';

const embedder = new HashingEmbedder({ dimensions: 64 });

describe('doctor reads a collection’s layout as the writer does, and its model as serve does', () => {
  let bench: DoctorBench;
  before(async () => {
    bench = await startDoctorBench();
  });
  after(() => bench.close());

  const createHybrid = (collection: string, dense: number) =>
    bench.client.createCollection(collection, {
      vectors: { dense: { size: dense, distance: 'Cosine' } },
      sparse_vectors: { bm25: { modifier: 'idf' } },
    });

  test('a hybrid-layout collection the bot writes passes, and a hybrid one of another size fails', async () => {
    const setup = bench.setup();
    await createHybrid(setup.collection, 64);
    // The bot's own writer stores a memory in it: the layout is one memory-pool writes.
    const store = withStCollectionLayouts(
      createQdrantPointStore({
        url: bench.store.url,
        ...(bench.store.apiKey ? { apiKey: bench.store.apiKey } : {}),
      }),
    );
    const [vector] = await embedder.embed(['Helen: the lighthouse keeper rowed out at dawn']);
    await store.upsertPoints(setup.collection, [
      {
        id: '0b7c36a5-7a36-4c8e-9a35-6d1f8f0e2a11',
        vector: Array.from(vector!),
        payload: { text: 'Helen: the lighthouse keeper rowed out at dawn' },
      },
    ]);
    const healthy = await bench.doctor(setup.config);
    assert.equal(healthy.code, 0, healthy.out);
    assert.match(
      healthy.out,
      new RegExp(
        `pass {2}bot mythos: collection ${setup.collection}: 1 point, "dense" 64-d Cosine, st-qdrant-memory's hybrid layout`,
      ),
    );

    const small = bench.setup();
    await createHybrid(small.collection, 32);
    const wrongSize = await bench.doctor(small.config);
    assert.equal(wrongSize.code, 1);
    assert.match(
      wrongSize.out,
      /FAIL {2}bot mythos: collection \S+: holds 32-dimensional vectors, the embedder makes 64\n {6}fix: .*reembed/,
    );
  });

  test('an unknown named or sparse layout fails, naming the vectors the bot cannot write and the fix', async () => {
    const named = bench.setup();
    await bench.client.createCollection(named.collection, {
      vectors: { image: { size: 64, distance: 'Cosine' }, caption: { size: 64, distance: 'Cosine' } },
    });
    const twoNamed = await bench.doctor(named.config);
    assert.equal(twoNamed.code, 1);
    assert.match(
      twoNamed.out,
      /FAIL {2}bot mythos: collection \S+: has vectors memory-pool cannot write \(caption\): it writes only "image", so its points would miss them\n {6}fix: Point bots\.mythos\.collection at another collection .*hybrid "dense" \+ "bm25"\./,
    );

    const sparse = bench.setup();
    await bench.client.createCollection(sparse.collection, {
      vectors: { size: 64, distance: 'Cosine' },
      sparse_vectors: { splade: {} },
    });
    const unnamedAndSparse = await bench.doctor(sparse.config);
    assert.equal(unnamedAndSparse.code, 1);
    assert.match(
      unnamedAndSparse.out,
      /FAIL {2}bot mythos: collection \S+: has one unnamed vector and sparse vectors \(splade\) that memory-pool never writes\n {6}fix: Point bots\.mythos\.collection/,
    );
  });

  test('after a live reembed the new collection passes against the recorded model; the stale config is its own FAIL with the fix', async () => {
    const setup = bench.setup();
    await bench.client.createCollection(setup.collection, { vectors: { size: 64, distance: 'Cosine' } });
    const texts = ['Helen: my sister Anna teaches piano in Lisbon', 'Mythos: does she play concerts there?'];
    const vectors = await embedder.embed(texts);
    await bench.client.upsert(setup.collection, {
      wait: true,
      points: texts.map((text, i) => ({ id: i + 1, vector: Array.from(vectors[i]!), payload: { text } })),
    });
    await bench.withJournal(setup, (journal) =>
      journal.recordCollectionModel(setup.collection, embedder.model, 64, Date.now()),
    );
    const to = join(setup.dataDir, '..', `${setup.collection}-to.yaml`);
    writeFileSync(to, 'embedding: { provider: hashing, dimensions: 32 }\n');
    const io = captureOutput();
    assert.equal(
      await runReembed({ bot: 'mythos', config: setup.config, to, json: true }, io),
      0,
      io.text().err,
    );
    const { to: target } = JSON.parse(io.text().out);

    const stale = await bench.doctor(setup.config);
    assert.equal(stale.code, 1, stale.out);
    assert.match(
      stale.out,
      new RegExp(
        `pass {2}bot mythos: collection ${target}: 2 points, one unnamed 32-d Cosine vector, model hashing:`,
      ),
    );
    assert.match(
      stale.out,
      new RegExp(
        `FAIL {2}bot mythos: config names the model serve uses: the config still names hashing:words-trigrams-v1 \\(64-d\\); ` +
          `serve uses the recorded hashing:words-trigrams-v1 \\(32-d\\) for ${target} \\(memory-pool reembed switched it\\)\\n` +
          ' {6}fix: Set embedding: in the config to the recorded settings \\{"provider":"hashing","dimensions":32\\}',
      ),
    );
    assert.match(stale.out, /1 of \d+ checks fails\./, 'only the config line fails');

    const updated = bench.setup({ of: setup, embedding: 'embedding: { provider: hashing, dimensions: 32 }' });
    const healthy = await bench.doctor(updated.config);
    assert.equal(healthy.code, 0, healthy.out);
    assert.match(
      healthy.out,
      /pass {2}bot mythos: config names the model serve uses: hashing:words-trigrams-v1 \(32-d\)/,
    );
  });
});
