import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { snapshotFileSource } from '../cli/commands/restore-command.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { exportSnapshot } from './export-snapshot.js';
import { type RestoreRequest, restoreSnapshot } from './restore-snapshot.js';
import { type DataToolStore, failAfter, startDataToolStore } from './test-support/data-tool-store.js';

const MODEL = new HashingEmbedder({ dimensions: 8 }).model;
const NOW = () => Date.UTC(2026, 11, 3, 12);
/** More than two of restore's batches of 128. */
const POINTS = 300;

describe('restore resumes after an interruption and refuses another model’s vectors', () => {
  let tools: DataToolStore;
  let dir: string;
  let collection: string;
  let snapshot: string;
  const restoreRequest = (into: string): RestoreRequest => ({
    file: snapshot,
    source: snapshotFileSource(snapshot),
    bot: 'mythos',
    collection: into,
    configuredModel: MODEL,
    dryRun: false,
  });
  const exportTo = async (journal: Journal, file: string) => {
    const lines: string[] = [];
    await exportSnapshot(
      { store: tools.admin(), journal, now: NOW },
      {
        bot: 'mythos',
        collection,
        write: async (line) => {
          lines.push(line);
        },
      },
    );
    writeFileSync(file, lines.join(''));
  };

  before(async () => {
    tools = await startDataToolStore();
    dir = mkdtempSync(join(tmpdir(), 'memory-pool-restore-'));
    collection = tools.uniqueCollection('restore');
    await tools.client.createCollection(collection, { vectors: { size: 8, distance: 'Cosine' } });
    // Unit vectors: the store keeps Cosine vectors normalized, so these read back exactly as written.
    await tools.client.upsert(collection, {
      wait: true,
      points: Array.from({ length: POINTS }, (_, i) => ({
        id: i + 1,
        vector: Array.from({ length: 8 }, (_, d) => (d === i % 8 ? 1 : 0)),
        payload: { text: `Helen: memory number ${i}`, messageIds: `st_${i}` },
      })),
    });
    const journal = openSqliteJournal(join(dir, 'source'));
    await journal.recordCollectionModel(collection, MODEL, 8, NOW());
    snapshot = join(dir, 'first.jsonl');
    await exportTo(journal, snapshot);
    await journal.close();
    // The store loses the collection; the snapshot is all that is left of it.
    await tools.admin().deleteCollection(collection);
  });
  after(async () => {
    await tools.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('stopped after two batches, run again it completes: nothing doubled, the export equals the snapshot', async () => {
    const journal = openSqliteJournal(join(dir, 'target'));
    try {
      await assert.rejects(
        restoreSnapshot(
          { store: tools.admin(failAfter('upsertFullPoints', 2)), journal },
          restoreRequest(collection),
        ),
        /the store went away/,
      );
      assert.equal(await tools.store().countPoints(collection), 256, 'two batches of 128 were stored');

      const resumed = await restoreSnapshot({ store: tools.admin(), journal }, restoreRequest(collection));
      assert.equal(resumed.alreadyRestored, false);
      assert.equal(resumed.points, POINTS);
      assert.equal(await tools.store().countPoints(collection), POINTS);
      const again = join(dir, 'again.jsonl');
      await exportTo(journal, again);
      assert.equal(readFileSync(again, 'utf8'), readFileSync(snapshot, 'utf8'));

      const third = await restoreSnapshot({ store: tools.admin(), journal }, restoreRequest(collection));
      assert.equal(third.alreadyRestored, true, 'a finished restore changes nothing');
    } finally {
      await journal.close();
    }
  });

  test('a collection the journal records for another model of the same size is refused with the fix', async () => {
    const other = tools.uniqueCollection('restore_other');
    await tools.client.createCollection(other, { vectors: { size: 8, distance: 'Cosine' } });
    const journal = openSqliteJournal(join(dir, 'other'));
    try {
      await journal.recordCollectionModel(other, 'openai-compatible:nomic-embed-text', 8, NOW());
      await assert.rejects(
        restoreSnapshot({ store: tools.admin(), journal }, restoreRequest(other)),
        new RegExp(
          `collection ${other} holds vectors of the embedding model openai-compatible:nomic-embed-text, the snapshot's are ${MODEL}: ` +
            'they cannot be compared\\. Restore into a new collection with --into-collection <name>',
        ),
      );
      assert.equal(await tools.store().countPoints(other), 0, 'nothing was written');
    } finally {
      await journal.close();
    }
  });

  test('a restore that creates a deleted collection again first deletes the parts it left behind', async () => {
    const into = tools.uniqueCollection('restore_parts');
    const journal = openSqliteJournal(join(dir, 'parts'));
    try {
      // The parts of a collection someone deleted: memory-pool's (recorded), still holding the deleted text.
      await tools.client.createCollection(`${into}__parts`, {
        vectors: { dense: { size: 8, distance: 'Cosine' } },
        sparse_vectors: { bm25: { modifier: 'idf' } },
      });
      await journal.partsIndexes.recordStarted(into, true, NOW());
      await journal.recordCollectionModel(`${into}__parts`, MODEL, 8, NOW());
      await restoreSnapshot({ store: tools.admin(), journal }, restoreRequest(into));
      assert.equal((await tools.client.collectionExists(`${into}__parts`)).exists, false);
      assert.equal(
        await journal.partsIndexes.isComplete(into),
        undefined,
        'the next parts index starts afresh',
      );
    } finally {
      await journal.close();
    }
  });
});
