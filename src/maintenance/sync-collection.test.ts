import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import type { StoreHooks } from '../store/test-support/with-store-hooks.js';
import { TIMELINE_INDEX_TYPE, TIMELINE_KEY } from '../store/timeline-index.js';
import { testBot } from '../config/test-support/test-bot.js';
import { type ReembedRequest, reembedCollection } from './reembed-collection.js';
import { reembedTargetName } from './reembed-target.js';
import { type DataToolStore, failAfter, startDataToolStore } from './test-support/data-tool-store.js';

const OLD = new HashingEmbedder({ dimensions: 64 });
const NEW = new HashingEmbedder({ dimensions: 32 });
/** More than two of the build's pages of 64. */
const POINTS = 150;

describe('a reembed build stopped halfway', () => {
  let tools: DataToolStore;
  let dir: string;
  let journal: Journal;
  let collection: string;
  before(async () => {
    tools = await startDataToolStore();
    dir = mkdtempSync(join(tmpdir(), 'memory-pool-reembed-'));
    journal = openSqliteJournal(dir);
    collection = tools.uniqueCollection('reembed');
    await tools.client.createCollection(collection, { vectors: { size: 64, distance: 'Cosine' } });
    const texts = Array.from({ length: POINTS }, (_, i) => `Helen: on day ${i} we walked to the lighthouse`);
    const vectors = await OLD.embed(texts);
    await tools.client.upsert(collection, {
      wait: true,
      points: texts.map((text, i) => ({ id: i + 1, vector: Array.from(vectors[i]!), payload: { text } })),
    });
    await journal.recordCollectionModel(collection, OLD.model, 64, Date.now());
  });
  after(async () => {
    await journal.close();
    await tools.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const build = (hooks: StoreHooks = {}) => {
    const request: ReembedRequest = {
      bot: testBot('mythos', { collection }),
      action: 'build',
      dryRun: false,
      serveRunning: false,
    };
    return reembedCollection(
      {
        store: tools.store(hooks),
        admin: tools.admin(),
        journal,
        embedder: NEW,
        embedding: '{"provider":"hashing","dimensions":32}',
        bots: {},
      },
      request,
    );
  };

  test('does not switch; run again, it embeds only what is missing, completes and switches', async () => {
    const target = reembedTargetName(collection, NEW.model, 32);
    await assert.rejects(build(failAfter('upsertPoints', 1)), /the store went away/);
    assert.equal(await tools.store().countPoints(target), 64, 'one page reached the new collection');
    assert.equal(
      await journal.routes.activeCollection(collection),
      collection,
      'the bot still uses the old one',
    );

    const rerun = await build();
    assert.equal(rerun.switched, true);
    assert.equal(rerun.sync?.embedded, POINTS - 64, 'what the stopped run stored is not embedded again');
    assert.equal(await journal.routes.activeCollection(collection), target);
    const moved = await tools.client.scroll(target, {
      limit: POINTS + 1,
      with_payload: true,
      with_vector: true,
    });
    assert.equal(moved.points.length, POINTS);
    assert.ok(moved.points.every((p) => (p.vector as number[]).length === 32));
    assert.deepEqual(
      new Set(moved.points.map((p) => p.payload?.text)),
      new Set(Array.from({ length: POINTS }, (_, i) => `Helen: on day ${i} we walked to the lighthouse`)),
    );
    // The bot reads the new collection now: the viewer's timeline orders it by timestamp, recall filters source.
    const schema = (await tools.client.getCollection(target)).payload_schema ?? {};
    assert.equal(schema[TIMELINE_KEY]?.data_type, TIMELINE_INDEX_TYPE, 'the timeline index');
    assert.equal(schema.source?.data_type, 'keyword', 'the source index');
    assert.equal(schema.dmWith?.data_type, 'keyword', 'the dmWith index');
  });
});
