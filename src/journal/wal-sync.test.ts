import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isMemoryPoolError } from '../errors/memory-pool-error.js';
import { JournalHealth } from './journal-health.js';
import { WalSync } from './wal-sync.js';

/** A sync the test finishes by hand, so it can ask for flushes while one is in progress. */
function createManualSync() {
  const pending: { path: string; done: (error?: Error) => void }[] = [];
  const sync = (path: string) =>
    new Promise<void>((resolve, reject) => {
      pending.push({ path, done: (error) => (error ? reject(error) : resolve()) });
    });
  const finishNext = async (error?: Error) => {
    for (let i = 0; i < 10 && pending.length === 0; i++) await new Promise(setImmediate);
    pending.shift()!.done(error);
    await new Promise(setImmediate);
  };
  return { pending, sync, finishNext };
}

test('a flush asked for during an fsync waits for the next one, and everyone waiting meanwhile shares it', async () => {
  const { pending, sync, finishNext } = createManualSync();
  const wal = new WalSync('/data/journal.sqlite-wal', new JournalHealth(), sync, async () => 7);
  const settled: string[] = [];
  const first = wal.flush().then(() => settled.push('first'));
  await finishNext(); // the directory, once
  assert.equal(pending[0]?.path, '/data/journal.sqlite-wal');
  // Commits made now may have missed the fsync in progress: they must not be acknowledged by it.
  const second = wal.flush().then(() => settled.push('second'));
  const third = wal.flush().then(() => settled.push('third'));
  await finishNext();
  assert.deepEqual(settled, ['first']);
  await finishNext();
  await Promise.all([first, second, third]);
  assert.deepEqual(settled, ['first', 'second', 'third']);
  assert.equal(pending.length, 0, 'two fsyncs of the WAL for three flushes');
});

test('an fsync the disk refuses is a retryable journal_unavailable, and the journal reads as unwritable', async () => {
  const { sync, finishNext } = createManualSync();
  const health = new JournalHealth();
  const wal = new WalSync('/data/journal.sqlite-wal', health, sync, async () => 7);
  const refused = assert.rejects(wal.flush(), (error: unknown) => {
    assert.ok(isMemoryPoolError(error));
    assert.equal(error.code, 'journal_unavailable');
    assert.equal(error.status, 503);
    assert.equal(error.retryable, true);
    assert.match(error.message, /EIO/);
    return true;
  });
  await finishNext(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
  await refused;
  assert.equal(health.failure?.code, 'journal_unavailable', '/ready says so until a write succeeds');
});
