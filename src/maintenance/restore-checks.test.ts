import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { snapshotFileSource } from '../cli/commands/restore-command.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { exportSnapshot } from './export-snapshot.js';
import { restoreSnapshot } from './restore-snapshot.js';
import { type DataToolStore, startDataToolStore } from './test-support/data-tool-store.js';

const MODEL = new HashingEmbedder({ dimensions: 8 }).model;
const NOW = () => Date.UTC(2026, 11, 3, 12);
const POINTS = 200;

describe('restore checks every line before its first write', () => {
  let tools: DataToolStore;
  let dir: string;
  /** The exported snapshot's lines: the header, then point 1 at index 1 (line 2), and so on. */
  let lines: string[];
  let files = 0;

  before(async () => {
    tools = await startDataToolStore();
    dir = mkdtempSync(join(tmpdir(), 'memory-pool-restore-checks-'));
    const collection = tools.uniqueCollection('checks');
    await tools.client.createCollection(collection, { vectors: { size: 8, distance: 'Cosine' } });
    await tools.client.upsert(collection, {
      wait: true,
      points: Array.from({ length: POINTS }, (_, i) => ({
        id: i + 1,
        vector: Array.from({ length: 8 }, (_, d) => (d === i % 8 ? 1 : 0)),
        payload: { text: `Helen: memory number ${i}` },
      })),
    });
    const journal = openSqliteJournal(join(dir, 'source'));
    const written: string[] = [];
    await exportSnapshot(
      { store: tools.admin(), journal, now: NOW },
      { bot: 'mythos', collection, write: async (line) => void written.push(line) },
    );
    await journal.close();
    lines = written.join('').split('\n');
  });
  after(async () => {
    await tools.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Writes the snapshot with line `lineNumber` (from 1) changed by `edit`, and restores it into a new collection. */
  const restoreEdited = async (lineNumber: number, edit: (line: Record<string, unknown>) => void) => {
    const edited = [...lines];
    const line = JSON.parse(edited[lineNumber - 1]!) as Record<string, unknown>;
    edit(line);
    edited[lineNumber - 1] = JSON.stringify(line);
    const file = join(dir, `edited-${++files}.jsonl`);
    writeFileSync(file, edited.join('\n'));
    const into = tools.uniqueCollection('into');
    const journal = openSqliteJournal(join(dir, `target-${files}`));
    try {
      const error = await restoreSnapshot(
        { store: tools.admin(), journal },
        {
          file,
          source: snapshotFileSource(file),
          bot: 'mythos',
          collection: into,
          configuredModel: MODEL,
          dryRun: false,
        },
      ).then(
        () => assert.fail('the restore was refused'),
        (refusal: Error) => refusal,
      );
      assert.equal(await tools.admin().readCollection(into), undefined, 'nothing was left behind');
      return { error, file };
    } finally {
      await journal.close();
    }
  };
  const point = (line: Record<string, unknown>) =>
    line as { id: unknown; vector: number[]; payload: unknown };

  for (const [what, lineNumber, edit, said] of [
    [
      'a vector one number short',
      152,
      (l) => point(l).vector.pop(),
      /line 152: is point 151's vector of 7 numbers, the header says 8/,
    ],
    [
      'a payload that is an array',
      120,
      (l) => {
        point(l).payload = ['Helen'];
      },
      /line 120: is point 119 whose payload is an array, not an object/,
    ],
    [
      'a negative id',
      90,
      (l) => {
        point(l).id = -5;
      },
      /line 90: has the point id -5: an id is an unsigned integer or a UUID/,
    ],
    [
      'an id that is a path',
      91,
      (l) => {
        point(l).id = '../../etc';
      },
      /line 91: has the point id "\.\.\/\.\.\/etc": an id is an unsigned integer or a UUID/,
    ],
    [
      'a header whose vector size is not the vectors’',
      1,
      (l) => {
        l.vectorSize = 16;
      },
      /line 1: says vectorSize 16, but its layout's vectors are 8-dimensional/,
    ],
    [
      'a layout whose size is not the vectors’',
      1,
      (l) => {
        l.vectorSize = 16;
        (l.layout as { vectors: { size: number } }).vectors.size = 16;
      },
      /line 2: is point 1's vector of 8 numbers, the header says 16/,
    ],
    [
      'an id above 2^53-1',
      92,
      (l) => {
        point(l).id = 2 ** 63;
      },
      /line 92: has the point id 9223372036854775808: ids above 2\^53-1 \(9007199254740991\) cannot be read exactly, so memory-pool cannot restore them.*Restore this collection from Qdrant's own snapshot instead\./,
    ],
    [
      'a header whose layout is null',
      1,
      (l) => {
        l.layout = null;
      },
      /line 1: has the layout null, not an object/,
    ],
    [
      'a point id repeated',
      20,
      (l) => {
        point(l).id = 7;
      },
      /line 20: repeats the point id 7 of line 8/,
    ],
  ] as const satisfies readonly [string, number, (line: Record<string, unknown>) => unknown, RegExp][]) {
    test(`${what} is refused, naming the line, and nothing is written`, async () => {
      const { error, file } = await restoreEdited(lineNumber, edit);
      assert.match(error.message, said);
      assert.ok(error.message.startsWith(`${file} line `), error.message);
      assert.match(error.message, /Nothing was written\.$/);
    });
  }

  test('a gzipped snapshot cut off is named, and said to be cut off, with the fix', async () => {
    const whole = gzipSync(Buffer.from(lines.join('\n')));
    const file = join(dir, 'cut.jsonl.gz');
    writeFileSync(file, whole.subarray(0, Math.floor(whole.length / 2)));
    const journal = openSqliteJournal(join(dir, 'cut'));
    try {
      await assert.rejects(
        restoreSnapshot(
          { store: tools.admin(), journal },
          {
            file,
            source: snapshotFileSource(file),
            bot: 'mythos',
            collection: tools.uniqueCollection('cut'),
            configuredModel: MODEL,
            dryRun: true,
          },
        ),
        (error: Error) => {
          assert.equal(
            error.message,
            `${file} is cut off: its gzip data ends early. Export the bot again, or copy the file again in full. Nothing was written.`,
          );
          return true;
        },
      );
    } finally {
      await journal.close();
    }
  });
});
