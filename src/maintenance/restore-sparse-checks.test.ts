/** @module Restore of collections with sparse vectors: what the store would refuse halfway is refused first. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { snapshotFileSource } from '../cli/commands/restore-command.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import type { StoreAdmin } from '../store/store-admin.js';
import { exportSnapshot } from './export-snapshot.js';
import { restoreSnapshot } from './restore-snapshot.js';
import { type DataToolStore, startDataToolStore } from './test-support/data-tool-store.js';

const NOW = () => Date.UTC(2026, 11, 3, 12);
/** A point line as export writes it for named vectors. */
type PointLine = { vector: { bm25: { indices: readonly number[] } } };

const sparse = (i: number) => ({ indices: [i + 1, i + 2], values: [1, 2] });

describe('restore with sparse vectors', () => {
  let tools: DataToolStore;
  let dir: string;
  let runs = 0;

  before(async () => {
    tools = await startDataToolStore();
    dir = mkdtempSync(join(tmpdir(), 'memory-pool-restore-sparse-'));
  });
  after(async () => {
    await tools.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Exports `collection`, edits line `lineNumber` (from 1) with `edit`, restores into a new collection. */
  const exportAndRestore = async (
    collection: string,
    lineNumber = 0,
    edit: (line: PointLine) => void = () => undefined,
  ) => {
    const journal = openSqliteJournal(join(dir, `source-${++runs}`));
    const written: string[] = [];
    await exportSnapshot(
      { store: tools.admin(), journal, now: NOW },
      { bot: 'mythos', collection, write: async (line) => void written.push(line) },
    );
    await journal.close();
    const lines = written.join('').split('\n');
    if (lineNumber > 0) {
      const line = JSON.parse(lines[lineNumber - 1]!);
      edit(line);
      lines[lineNumber - 1] = JSON.stringify(line);
    }
    const file = join(dir, `snapshot-${runs}.jsonl`);
    writeFileSync(file, lines.join('\n'));
    const into = tools.uniqueCollection('into');
    const target = openSqliteJournal(join(dir, `target-${runs}`));
    try {
      const outcome = await restoreSnapshot(
        { store: tools.admin(), journal: target },
        {
          file,
          source: snapshotFileSource(file),
          bot: 'mythos',
          collection: into,
          configuredModel: 'x',
          dryRun: false,
        },
      ).then(
        (summary) => summary,
        (refusal: Error) => refusal,
      );
      return { outcome, into };
    } finally {
      await target.close();
    }
  };

  test('a collection of one unnamed vector and sparse vectors restores from its own export', async () => {
    const collection = tools.uniqueCollection('mixed');
    await tools.client.createCollection(collection, {
      vectors: { size: 4, distance: 'Cosine' },
      sparse_vectors: { bm25: {} },
    });
    await tools.client.upsert(collection, {
      wait: true,
      points: [
        { id: 1, vector: { '': [1, 0, 0, 0], bm25: sparse(1) } as never, payload: { text: 'both' } },
        { id: 2, vector: [0, 1, 0, 0], payload: { text: 'dense only' } },
      ],
    });
    const { outcome, into } = await exportAndRestore(collection);
    assert.ok(!(outcome instanceof Error), String(outcome));
    assert.equal(outcome.points, 2);
    assert.equal((await tools.admin().readCollection(into))?.pointsCount, 2);
  });

  test('an id past 2^53-1 is refused at export, before a snapshot that could not restore it is whole', async () => {
    // The embedded store refuses such ids; Qdrant (u64 ids) holds them, and hands them over as JSON numbers.
    const collection = 'big_ids';
    const qdrant = {
      readCollection: async () => ({
        layout: { vectors: { size: 4, distance: 'Cosine' } },
        payloadIndexes: {},
        pointsCount: 1,
      }),
      scrollFullPoints: async () => ({
        points: [{ id: 2 ** 60, vector: [1, 0, 0, 0], payload: { text: 'far' } }],
        nextOffset: undefined,
      }),
    } as unknown as StoreAdmin;
    const journal = openSqliteJournal(join(dir, `big-${++runs}`));
    const written: string[] = [];
    try {
      await assert.rejects(
        exportSnapshot(
          { store: qdrant, journal, now: NOW },
          { bot: 'mythos', collection, write: async (line) => void written.push(line) },
        ),
        /holds a point id above 2\^53-1 \(read as 1152921504606846976\).*Qdrant's own snapshots/,
      );
      assert.ok(!written.join('').includes('"type":"end"'), 'no end line: the snapshot is never whole');
    } finally {
      await journal.close();
    }
  });

  describe('named dense and sparse vectors', () => {
    let collection: string;
    before(async () => {
      collection = tools.uniqueCollection('hybrid');
      await tools.client.createCollection(collection, {
        vectors: { dense: { size: 4, distance: 'Cosine' } },
        sparse_vectors: { bm25: { modifier: 'idf' } },
      });
      // More than one of restore's batches of 128, so a refusal by the store would come after a write.
      await tools.client.upsert(collection, {
        wait: true,
        points: Array.from({ length: 200 }, (_, i) => ({
          id: i + 1,
          vector: { dense: [1, i, 0, 0.5], bm25: sparse(i) },
          payload: { text: `memory ${i}` },
        })),
      });
    });

    for (const [what, indices, said] of [
      ['repeats an index', [5, 5], /line 200: is point 199's sparse vector "bm25" that repeats an index/],
      [
        'has an index past 2^32-1',
        [2 ** 33, 7],
        /line 200: is point 199's sparse vector "bm25" with the index 8589934592: indices are integers 0 to 4294967295/,
      ],
    ] as const) {
      test(`a sparse vector that ${what} is refused before the first write`, async () => {
        const { outcome, into } = await exportAndRestore(collection, 200, (line) => {
          line.vector.bm25.indices = [...indices];
        });
        assert.ok(outcome instanceof Error, 'the restore was refused');
        assert.match(outcome.message, said);
        assert.equal(await tools.admin().readCollection(into), undefined, 'nothing was left behind');
      });
    }
  });
});
