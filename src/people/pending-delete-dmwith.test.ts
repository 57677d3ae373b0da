/**
 * A rename pass over a chunk whose point waits for its delete (a forget of one of its messages, the store slow or
 * down): until that old point is gone and the chunk rewritten, its `dmWith` may still name the person an account
 * left, so a DM recall must not trust the field (issue 33, finding 3).
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { readPersonDms } from './read-person-dms.js';
import { runRenamePass } from './run-rename-pass.js';

const bot = 'mythos';
const anna = { kind: 'user' as const, value: 'telegram:5678' };
const carl = { kind: 'user' as const, value: 'telegram:77' };

test('dmWith is not trusted while a chunk of an unlinked account still has its old point, waiting for a delete', async () => {
  const j = openSqliteJournal(mkdtempSync(join(tmpdir(), 'memory-pool-dm-del-')));
  try {
    const dm = {
      bot,
      source: 'hermes',
      isDm: true,
      speakerKind: 'user' as const,
      channelId: 'tg-carl',
      userId: carl.value,
    };
    await j.recordMessages(
      [
        { ...dm, messageId: 'c1', ts: 1, text: 'one' },
        { ...dm, messageId: 'c2', ts: 2, text: 'two' },
        { ...dm, messageId: 'a1', ts: 3, text: 'hi', channelId: 'tg-anna', userId: anna.value },
      ],
      1,
    );
    const chunk = {
      chunkId: 'ch-carl',
      bot,
      collection: 'mem_mythos',
      source: 'hermes',
      messageIds: ['c1', 'c2'],
    };
    await j.transaction(async (tx) => tx.chunks.planChunk(chunk, 2));
    assert.equal(await j.chunks.markChunkStored('ch-carl', 0, 3), true);
    // Linked to Anna, the pass done and the chunk rewritten: its point says dmWith person:p_anna.
    await j.people.create(bot, { id: 'p_anna', name: 'Anna', accounts: [anna, carl] }, 4);
    await runRenamePass(j, bot, { holder: 'test', leaseMs: 15_000, minAgeMs: 0 });
    const [again] = await j.chunks.plannedChunks(['ch-carl']);
    assert.equal(await j.chunks.markChunkStored('ch-carl', again!.revision, 6), true);
    await j.renames.dropFinished(); // as the rename runner does: that rename is over
    assert.deepEqual((await readPersonDms(j, bot, anna))?.dmWith, [
      'person:p_anna',
      `account:${anna.value}`,
      `account:${carl.value}`,
    ]);
    // Carl forgets one message (its point must be deleted first), then is split off Anna, and the pass runs.
    await j.forgetting.forgetMessages(bot, [{ id: 'c1', source: 'hermes' }], 7);
    await j.people.update(bot, 'p_anna', { remove: [carl] }, 8);
    assert.notEqual(await runRenamePass(j, bot, { holder: 'test', leaseMs: 15_000, minAgeMs: 0 }), 'busy');
    assert.equal(
      (await readPersonDms(j, bot, anna))?.dmWith,
      undefined,
      'dmWith trusted while the old point is stored',
    );
    // The delete done, the chunk is replanned and rewritten under today's links: dmWith is trusted again.
    const [deletion] = await j.chunks.dueDeletions(9, 10);
    await j.chunks.markChunkDeleted('ch-carl', deletion!.revision, 9);
    const [rewrite] = await j.chunks.plannedChunks(['ch-carl']);
    assert.equal(await j.chunks.markChunkStored('ch-carl', rewrite!.revision, 10), true);
    assert.notEqual((await readPersonDms(j, bot, anna))?.dmWith, undefined);
  } finally {
    await j.close();
  }
});
