/**
 * @module Review s24 finding 2: a bulk forget on the SQLite port lets other journal calls through between its
 * slices, so a /save issued mid-forget is not held until the whole forget is done.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setImmediate } from 'node:timers/promises';
import { FORGET_SLICE } from '../forget-journal.js';
import { openSqliteJournal } from './sqlite-journal.js';

const messages = (from: number, count: number, source: string) =>
  Array.from({ length: count }, (_, i) => ({
    bot: 'mythos',
    source,
    messageId: `m${from + i}`,
    speakerKind: 'user' as const,
    text: `text ${from + i}`,
    ts: from + i,
    channelId: 'c',
  }));

test('a save issued mid-forget completes before the forget does', async () => {
  const journal = openSqliteJournal(mkdtempSync(join(tmpdir(), 'forget-gate-')));
  try {
    const total = FORGET_SLICE * 8;
    await journal.recordMessages(messages(0, total, 'bulk'), 1);
    const targets = await journal.forgetting.findMatching('mythos', { field: 'source', value: 'bulk' });
    assert.equal(targets.length, total);
    const finished: string[] = [];
    const forget = journal.forgetting.forgetMessages('mythos', targets, 2).then((result) => {
      finished.push('forget');
      return result;
    });
    await setImmediate(); // the forget's first slice has begun
    const save = journal.recordMessages(messages(total, 1, 'live'), 3).then(() => finished.push('save'));
    const [result] = await Promise.all([forget, save]);
    assert.equal(result.messagesForgotten, total, 'every slice ran');
    assert.deepEqual(finished, ['save', 'forget']);
    // The save landed between slices and was not forgotten (another source, saved after the targets were found).
    assert.deepEqual((await journal.botCounts('mythos')).bySource, { live: 1 });
  } finally {
    await journal.close();
  }
});
