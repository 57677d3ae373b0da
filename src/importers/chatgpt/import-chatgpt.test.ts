import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  type ImportTestBench,
  startImportTestBench,
} from '../../cli/commands/test-support/import-test-bench.js';

const EXPORT = join(import.meta.dirname, 'fixtures', 'conversations.json');
const id = (n: number) => `aaaaaaaa-0000-4000-8000-00000000000${n}`;

describe('memory-pool import chatgpt', () => {
  let bench: ImportTestBench;
  before(async () => {
    bench = await startImportTestBench();
  });
  after(() => bench.close());

  test('the current branch of each conversation, user and assistant turns only; twice adds nothing', async () => {
    const first = await bench.run('chatgpt', [EXPORT], { userName: 'Helen' });
    assert.equal(first.code, 0, first.err);
    assert.equal(first.summary?.accepted, 4);
    const chunks = await bench.chunks();
    // The edited-away branch (4, 5), the hidden system turn (1) and the tool call (7) are not imported.
    assert.deepEqual(
      chunks.flatMap((c) => c.messageIds),
      [id(2), id(3), id(6), id(8)],
    );
    assert.ok(
      chunks.every((c) => c.channelId === 'cccccccc-0000-4000-8000-000000000001' && c.source === 'chatgpt'),
    );
    assert.equal(chunks[0]?.timestamp, 1710000010500);
    assert.match(chunks[0]?.text ?? '', /^\[2024-03-09\]\nHelen: What should a beginner practise first/);
    assert.match(chunks.map((c) => c.text).join('\n'), /^Mythos: Start with C major scales/m);
    assert.equal(chunks.at(-1)?.text, '[2024-03-10]\nMythos: Twenty minutes a day is a good start.');

    const second = await bench.run('chatgpt', [EXPORT], { userName: 'Helen' });
    assert.equal(second.summary?.accepted, 0);
    assert.equal(second.summary?.duplicates, 4);
    assert.deepEqual(await bench.chunks(), chunks);
  });

  test('a broken tree or a file that is not JSON is refused with the place and the fix', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatgpt-bad-'));
    try {
      writeFileSync(join(dir, 'cut.json'), '[{"title": "x",\n "mapping": {');
      const cut = await bench.run('chatgpt', [join(dir, 'cut.json')]);
      assert.equal(cut.code, 1);
      assert.match(cut.err, /cut\.json(:2)?: not JSON .*data export/);
      writeFileSync(
        join(dir, 'tree.json'),
        JSON.stringify([{ id: 'c1', current_node: 'n2', mapping: { n2: { id: 'n2', parent: 'gone' } } }]),
      );
      const tree = await bench.run('chatgpt', [join(dir, 'tree.json')]);
      assert.match(tree.err, /tree\.json \[0\]: message tree is broken at node gone/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
