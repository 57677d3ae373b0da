import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  type ImportTestBench,
  startImportTestBench,
} from '../../cli/commands/test-support/import-test-bench.js';

const HISTORY = join(import.meta.dirname, 'fixtures', 'history.jsonl');

describe('memory-pool import jsonl', () => {
  let bench: ImportTestBench;
  before(async () => {
    bench = await startImportTestBench({ speakerAliases: { 'telegram:42': 'Helen W.' } });
  });
  after(() => bench.close());

  test('the /save shape plus ts, under --source; seconds become ms; twice adds nothing', async () => {
    const first = await bench.run('jsonl', [HISTORY], { source: 'notes' });
    assert.equal(first.code, 0, first.err);
    assert.equal(first.summary?.accepted, 3);
    const chunks = await bench.chunks();
    assert.deepEqual(
      chunks.map((c) => c.messageIds),
      [['notes-1', 'notes-2'], ['notes-3']],
    );
    assert.ok(chunks.every((c) => c.source === 'notes' && c.channelId === 'journal'));
    assert.equal(
      chunks[0]?.text,
      '[2023-11-14]\nHelen: The bakery on Rua Augusta makes the best pastéis de nata.\nMythos: I will remember the bakery on Rua Augusta.',
    );
    assert.equal(chunks[1]?.timestamp, 1700090000000);
    assert.equal(chunks[1]?.speakers, 'Helen W.', 'a user id with an alias speaks under the alias');

    const second = await bench.run('jsonl', [HISTORY], { source: 'notes' });
    assert.equal(second.summary?.accepted, 0);
    assert.equal(second.summary?.duplicates, 3);
    assert.deepEqual(await bench.chunks(), chunks);
  });

  test('a bad line names its file, line and field, and nothing of the file is written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsonl-bad-'));
    try {
      const file = join(dir, 'bad.jsonl');
      writeFileSync(
        file,
        '{"speaker_kind":"user","text":"fine","message_id":"b1","ts":1700000000000}\n\n{"speaker_kind":"user","text":"no time","message_id":"b2"}\n',
      );
      const noTs = await bench.run('jsonl', [file]);
      assert.equal(noTs.code, 1);
      assert.match(noTs.err, /bad\.jsonl:3: ts is required.*Each line is one JSON object/);
      writeFileSync(file, '{"speaker_kind":"user","text":"a,b","message_id":"b,1","ts":1700000000000}\n');
      const comma = await bench.run('jsonl', [file]);
      assert.match(comma.err, /bad\.jsonl:1: message_id must not contain a comma/);
      writeFileSync(file, '{"speaker_kind":"user","text":"   ","message_id":"b3","ts":1700000000000}\n');
      const empty = await bench.run('jsonl', [file]);
      assert.match(empty.err, /bad\.jsonl:1: text must not be empty\. Fix or delete this message/);
      writeFileSync(file, '["not", "an", "object"]\n');
      const array = await bench.run('jsonl', [file]);
      assert.match(array.err, /bad\.jsonl:1: line Invalid input: expected object/);
      const stats = await fetch(`${bench.service.url}/bots/mythos/stats`).then((r) => r.json());
      assert.equal(
        JSON.stringify(stats).includes('"import"'),
        false,
        'nothing was journaled under source import',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
