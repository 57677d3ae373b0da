import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  type ImportTestBench,
  startImportTestBench,
} from '../../cli/commands/test-support/import-test-bench.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const MYTHOS_CHAT = join(FIXTURES, 'chats', 'Mythos', 'Mythos - 2024-05-12@10h00m00s000ms.jsonl');
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** "May 13, 2024 9:20am" has no zone: local time, as the browser the extension runs in reads it. */
const LEGACY_MS = new Date(2024, 4, 13, 9, 20).getTime();
const EXPECTED_IDS = [
  'Mythos_1715508000000_1', // the header is line 0 of what SillyTavern's chat endpoint returns
  'Mythos_1715508060000_2',
  'Mythos_1715508180000_6', // "ok" (3), the hidden line (4) and the narrator (5) are skipped; a number is ms
  `Mythos_${Date.UTC(2024, 4, 13, 9, 15)}_7`, // the blank line counts for nothing; "@09h15m00s" is UTC
  `Mythos_${LEGACY_MS}_8`,
];

describe('memory-pool import sillytavern', () => {
  let bench: ImportTestBench;
  before(async () => {
    bench = await startImportTestBench();
  });
  after(() => bench.close());

  test('a chat file: index-chats ids, real days, the persona as speaker; a second run adds nothing', async () => {
    const first = await bench.run('sillytavern', [MYTHOS_CHAT]);
    assert.equal(first.code, 0, first.err);
    assert.equal(first.summary?.accepted, 5);
    assert.equal(first.summary?.pendingMessages, 0);
    assert.equal(first.summary?.oldest, Date.UTC(2024, 4, 12, 10, 0));
    assert.equal(
      Object.values(first.summary?.skipped ?? {}).reduce((a, b) => a + b, 0),
      3,
    );
    const chunks = await bench.chunks();
    assert.deepEqual(chunks.flatMap((c) => c.messageIds).sort(), [...EXPECTED_IDS].sort());
    for (const chunk of chunks) {
      assert.ok(chunk.text.startsWith(`[${day(chunk.timestamp)}]\n`), chunk.text);
      assert.equal(chunk.source, 'sillytavern');
      assert.equal(chunk.channelId, 'Mythos/Mythos - 2024-05-12@10h00m00s000ms');
    }
    // A chunk never spans two days, so the second day's messages are dated by their own header.
    const nextDay = chunks.find((c) => c.messageIds.includes(EXPECTED_IDS[3]!));
    assert.equal(nextDay?.text.split('\n')[0], '[2024-05-13]');
    assert.deepEqual([...new Set(chunks.map((c) => day(c.timestamp)))], ['2024-05-12', '2024-05-13']);
    const text = chunks.map((c) => c.text).join('\n');
    assert.match(text, /^Helen: My sister Anna moved to Lisbon last week\.$/m);
    assert.match(text, /^Mythos: Lisbon! Does Anna still teach piano there\?$/m);
    assert.doesNotMatch(text, /hidden with \/hide|storm rolls|: ok$/m);

    const second = await bench.run('sillytavern', [MYTHOS_CHAT]);
    assert.equal(second.code, 0, second.err);
    assert.equal(second.summary?.accepted, 0);
    assert.equal(second.summary?.duplicates, 5);
    assert.equal(second.summary?.chunksWritten, 0);
    assert.deepEqual(await bench.chunks(), chunks);
  });

  test('--user-name overrides the persona name', async () => {
    const other = await startImportTestBench();
    try {
      const run = await other.run('sillytavern', [MYTHOS_CHAT], { userName: 'Helena' });
      assert.equal(run.code, 0, run.err);
      const text = (await other.chunks()).map((c) => c.text).join('\n');
      assert.match(text, /^Helena: My sister Anna/m);
      assert.doesNotMatch(text, /^Helen:/m);
    } finally {
      await other.close();
    }
  });

  test("the whole tree: only the bot's character, and the group chats it speaks in", async () => {
    const other = await startImportTestBench();
    try {
      const run = await other.run('sillytavern', [join(FIXTURES, 'chats'), join(FIXTURES, 'group chats')]);
      assert.equal(run.code, 0, run.err);
      assert.equal(run.summary?.accepted, 5 + 3);
      assert.ok(run.summary?.notes.some((n) => n.includes('Seraphina') && n.includes('--character')));
      assert.ok(run.summary?.notes.some((n) => n.includes('2024-06-03') && n.includes('does not speak')));
      const group = (await other.chunks()).filter(
        (c) => c.channelId === 'group chats/2024-06-02@19h00m00s000ms',
      );
      const text = group.map((c) => c.text).join('\n');
      assert.match(text, /^Helen: Both of you/m);
      assert.match(text, /^Seraphina: I will bring lanterns/m);
      assert.match(text, /^Mythos: And I will keep the lighthouse lamp/m);
      assert.deepEqual(group.flatMap((c) => c.messageIds).sort(), [
        'Mythos_1717354800000_1',
        'Mythos_1717354860000_2',
        'Mythos_1717354920000_3',
      ]);
    } finally {
      await other.close();
    }
  });

  test('messages st-qdrant-memory already indexed are not stored twice', async () => {
    const other = await startImportTestBench();
    try {
      await other.client.createCollection(other.collection, { vectors: { size: 64, distance: 'Cosine' } });
      await other.client.upsert(other.collection, {
        wait: true,
        points: [
          {
            id: '0b7f6a2e-8c1d-4e5f-9a3b-2c4d6e8f0a1b',
            vector: Array.from({ length: 64 }, (_, i) => (i === 0 ? 1 : 0)),
            payload: {
              text: '[2024-05-12]\nMythos: Welcome back…\nHelen: My sister Anna…',
              speakers: 'Mythos, Helen',
              messageCount: 2,
              timestamp: 1715508000000,
              messageIds: `${EXPECTED_IDS[0]},${EXPECTED_IDS[1]}`,
              isChunk: true,
            },
          },
        ],
      });
      const run = await other.run('sillytavern', [MYTHOS_CHAT]);
      assert.equal(run.code, 0, run.err);
      assert.equal(run.summary?.alreadyInSillyTavern, 2);
      assert.equal(run.summary?.accepted, 3);
      const ours = (await other.chunks()).filter((c) => c.source === 'sillytavern');
      assert.deepEqual(ours.flatMap((c) => c.messageIds).sort(), EXPECTED_IDS.slice(2).sort());
    } finally {
      await other.close();
    }
  });

  test('--dry-run counts what it would add and writes nothing', async () => {
    const other = await startImportTestBench();
    try {
      const run = await other.run('sillytavern', [MYTHOS_CHAT], { dryRun: true });
      assert.equal(run.code, 0, run.err);
      assert.equal(run.summary?.dryRun, true);
      assert.equal(run.summary?.accepted, 5);
      assert.deepEqual(await other.chunks(), []);
      const real = await other.run('sillytavern', [MYTHOS_CHAT]);
      assert.equal(real.summary?.accepted, 5);
    } finally {
      await other.close();
    }
  });

  test('a broken line is refused with its file, line and fix, and nothing is written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'st-broken-'));
    try {
      cpSync(MYTHOS_CHAT, join(dir, 'chat.jsonl'));
      writeFileSync(join(dir, 'chat.jsonl'), '{"name":"Helen","is_user":true,"mes":"cut off', { flag: 'a' });
      const broken = await bench.run('sillytavern', [join(dir, 'chat.jsonl')]);
      assert.equal(broken.code, 1);
      assert.match(broken.err, /chat\.jsonl:11: not a JSON line .*Repair the line or delete it/);
      writeFileSync(
        join(dir, 'dated.jsonl'),
        '{"user_name":"Helen","character_name":"Mythos"}\n{"name":"Helen","is_user":true,"mes":"When was this said?","send_date":"someday"}\n',
      );
      const undated = await bench.run('sillytavern', [join(dir, 'dated.jsonl')]);
      assert.equal(undated.code, 1);
      assert.match(undated.err, /dated\.jsonl:2: send_date "someday" is not a date\. Set it to/);
      const missing = await bench.run('sillytavern', [join(dir, 'nowhere')]);
      assert.match(missing.err, /nowhere: no such file or folder/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
