import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type ImportTestBench, startImportTestBench } from '../cli/commands/test-support/import-test-bench.js';

const line = (id: string, text: string) =>
  `${JSON.stringify({ speaker_kind: 'user', text, message_id: id, ts: 1700000000000, channel_id: id })}\n`;
/** UTF-16 with its byte-order mark, as Windows tools write "Unicode" text. */
const utf16 = (text: string, order: 'le' | 'be') => {
  const le = Buffer.from(`\uFEFF${text}`, 'utf16le');
  return order === 'le' ? le : Buffer.from(le).swap16();
};

describe('import reads UTF-8, decodes marked UTF-16, and refuses other encodings saying what happened', () => {
  let bench: ImportTestBench;
  let dir: string;
  before(async () => {
    bench = await startImportTestBench();
    dir = mkdtempSync(join(tmpdir(), 'import-encodings-'));
  });
  after(async () => {
    await bench.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const texts = async () => (await bench.chunks()).map((c) => c.text).join('\n');

  test('a Latin-1 file is refused, naming the file and line, with the fix; nothing is stored', async () => {
    const file = join(dir, 'latin1.jsonl');
    writeFileSync(
      file,
      Buffer.concat([Buffer.from(line('l1', 'plain')), Buffer.from(line('l2', 'café au lait'), 'latin1')]),
    );
    for (const dryRun of [false, true]) {
      const run = await bench.run('jsonl', [file], { dryRun });
      assert.equal(run.code, 1);
      assert.equal(
        run.err,
        `error: ${file}:2: not UTF-8 text (Latin-1 or another legacy encoding). Convert it to UTF-8 ` +
          '(e.g. `iconv -f latin1 -t utf-8 in.json > out.json`, or save it as UTF-8) and import it again. Nothing was written.\n',
      );
    }
    assert.doesNotMatch(await texts(), /caf|\uFFFD/);
  });

  for (const order of ['le', 'be'] as const) {
    test(`a UTF-16 ${order.toUpperCase()} file with its byte-order mark is read as its characters`, async () => {
      const file = join(dir, `utf16${order}.jsonl`);
      writeFileSync(file, utf16(line(`u-${order}`, `Crème brûlée in ${order}`), order));
      const run = await bench.run('jsonl', [file]);
      assert.equal(run.code, 0, run.err);
      assert.equal(run.summary?.accepted, 1);
      assert.match(await texts(), new RegExp(`Crème brûlée in ${order}`));
    });
  }

  test('UTF-16 without a byte-order mark is refused as such, not as "not JSON"', async () => {
    const file = join(dir, 'bare16.jsonl');
    writeFileSync(file, Buffer.from(line('b1', 'hello'), 'utf16le'));
    const run = await bench.run('jsonl', [file]);
    assert.equal(run.code, 1);
    assert.match(
      run.err,
      /bare16\.jsonl: UTF-16 text without a byte-order mark .*Convert it to UTF-8.*Nothing was written\.\n$/,
    );
  });

  for (const [what, bytes, said] of [
    [
      'UTF-16 without a byte-order mark, in a non-Latin script',
      Buffer.from(line('c1', '東京で会いましょう'), 'utf16le'),
      /: UTF-16 text without a byte-order mark .*iconv -f utf-16le -t utf-8/,
    ],
    [
      'UTF-16 with its byte-order mark but cut mid-character',
      Buffer.concat([utf16(line('o1', 'x'), 'le'), Buffer.from([0x41])]),
      /: not valid UTF-16LE text, though it starts like it\. .*iconv -f utf-16le -t utf-8/,
    ],
    [
      'UTF-32 LE with its byte-order mark',
      Buffer.concat([
        Buffer.from([0xff, 0xfe, 0, 0]),
        Buffer.from([...line('u1', 'x')].flatMap((ch) => [ch.charCodeAt(0), 0, 0, 0])),
      ]),
      /: UTF-32 LE text\. .*iconv -f utf-32le -t utf-8/,
    ],
    [
      'an empty file',
      Buffer.alloc(0),
      /: is empty: it holds no messages\. Check that it is the export you meant/,
    ],
    [
      'a file of only a byte-order mark',
      Buffer.from([0xef, 0xbb, 0xbf]),
      /: is empty: it holds no messages\. Check that it is the export you meant/,
    ],
  ] as const) {
    test(`${what} is refused with the fix for its own encoding (exit 1, nothing written)`, async () => {
      const file = join(dir, `${what.replaceAll(/\W+/g, '-')}.jsonl`);
      writeFileSync(file, bytes);
      const run = await bench.run('jsonl', [file]);
      assert.equal(run.code, 1, run.out);
      assert.match(run.err, said);
      assert.match(run.err, /Nothing was written\.\n$/);
      assert.doesNotMatch(run.err, /latin1|Latin-1/);
    });
  }

  test('a message refused after reading says nothing was written, not "counts as duplicates"', async () => {
    const file = join(dir, 'empty-text.jsonl');
    writeFileSync(file, line('e1', 'fine') + line('e2', '   '));
    for (const dryRun of [false, true]) {
      const run = await bench.run('jsonl', [file], { dryRun });
      assert.equal(run.code, 1);
      assert.match(run.err, /empty-text\.jsonl:2: text must not be empty\. Fix or delete this message\./);
      assert.match(run.err, dryRun ? / Dry run: nothing was written\.\n$/ : / Nothing was written\.\n$/);
      assert.doesNotMatch(run.err, /duplicates/);
    }
    assert.doesNotMatch(await texts(), /fine/);
  });

  test('a ChatGPT export whose current_node is an inherited key is refused as a broken tree', async () => {
    for (const key of ['__proto__', 'constructor', 'toString']) {
      const file = join(dir, `proto-${key}.json`);
      writeFileSync(file, JSON.stringify([{ id: 'c1', current_node: key, mapping: { n1: { id: 'n1' } } }]));
      const run = await bench.run('chatgpt', [file]);
      assert.equal(run.code, 1, `${key}: ${run.out}`);
      assert.match(run.err, new RegExp(`proto-${key}\\.json \\[0\\]: message tree is broken at node ${key}`));
    }
  });
});
