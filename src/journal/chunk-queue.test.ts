import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { MemoryMessage } from '../chunking/memory-message.js';
import { useTempMessageJournal } from './test-support/temp-message-journal.js';

const T0 = Date.UTC(2026, 11, 1, 9);
const say = (messageId: string, text: string, ts: number): MemoryMessage => ({
  bot: 'mythos',
  source: 'discord',
  messageId,
  speakerKind: 'user',
  text,
  ts,
  channelId: 'c1',
});

describe('the chunk queue: planning, stored marks, retries and deletes', () => {
  const temp = useTempMessageJournal();
  /** Records a, b, c and plans them as chunk k1 (b said before a, so the order is by time). */
  const planK1 = () => {
    temp.journal.recordMessages(
      [say('a', 'first', T0 + 2000), say('b', 'second', T0 + 1000), say('c', 'third', T0 + 3000)],
      T0,
    );
    temp.journal.chunks.planChunk(
      { chunkId: 'k1', bot: 'mythos', collection: 'mem', source: 'discord', messageIds: ['a', 'b', 'c'] },
      T0,
    );
    return temp.journal.chunks.dueChunks(T0, 10)[0]!;
  };

  test('a planned chunk owns its messages (in time order), is due, and is not stored yet', () => {
    const k1 = planK1();
    assert.deepEqual(
      { chunkId: k1.chunkId, collection: k1.collection, attempts: k1.attempts },
      { chunkId: 'k1', collection: 'mem', attempts: 0 },
    );
    assert.deepEqual(
      temp.journal.chunks.chunkMessages('k1').map((m) => m.messageId),
      ['b', 'a', 'c'],
    );
    assert.deepEqual(temp.journal.pendingConversations(), [], 'no message waits for a chunk any more');
    assert.deepEqual(temp.journal.chunks.storedChunks('mythos'), []);
    assert.equal(temp.journal.chunks.hasChunk('k1'), true);
  });

  test('a stored mark counts only for the revision written: an edit meanwhile keeps the chunk due', () => {
    const k1 = planK1();
    temp.journal.recordMessages([say('a', 'first, edited', T0 + 2000)], T0 + 5000);
    temp.journal.chunks.markChunkStored('k1', k1.revision, T0 + 6000);
    assert.deepEqual(
      temp.journal.chunks.storedChunks('mythos'),
      [],
      'the write of the old text does not count',
    );
    const again = temp.journal.chunks.dueChunks(T0 + 6000, 10)[0]!;
    assert.equal(again.revision, k1.revision + 1);
    temp.journal.chunks.markChunkStored('k1', again.revision, T0 + 7000);
    assert.deepEqual(
      temp.journal.chunks.storedChunks('mythos').map((c) => c.chunkId),
      ['k1'],
    );
    assert.deepEqual(temp.journal.chunks.dueChunks(T0 + 7000, 10), []);
    assert.deepEqual(
      temp.journal.chunks.storedAmong(['k1', 'nope']).map((c) => c.chunkId),
      ['k1'],
    );
  });

  test('a failed write waits for its retry time, unless an outage ends or the service restarts', () => {
    const k1 = planK1();
    temp.journal.chunks.markChunkFailed('k1', k1.revision, 'store down', T0 + 60_000);
    assert.deepEqual(temp.journal.chunks.dueChunks(T0 + 1000, 10), []);
    assert.equal(temp.journal.chunks.nextChunkDueAt(), T0 + 60_000);
    assert.equal(temp.journal.chunks.dueChunks(T0 + 60_000, 10)[0]?.attempts, 1);
    assert.deepEqual(temp.journal.oldestPending(), { arrivedAt: T0, lastError: 'store down' });
    temp.journal.chunks.makeChunksDue(['k1']);
    assert.equal(temp.journal.chunks.nextChunkDueAt(), 0);
    temp.journal.chunks.markChunkFailed('k1', k1.revision, 'store down', T0 + 60_000);
    temp.journal.chunks.resetRetryDelays();
    assert.equal(temp.journal.chunks.dueChunks(T0, 10).length, 1);
  });

  test('after a forget, the point is deleted first; the chunk is then rewritten with what is left, or dropped', async () => {
    const k1 = planK1();
    temp.journal.chunks.markChunkStored('k1', k1.revision, T0);
    await temp.journal.forgetting.forgetMessages('mythos', [{ id: 'a', source: 'discord' }], T0 + 1000);
    assert.deepEqual(temp.journal.chunks.dueChunks(T0 + 1000, 10), [], 'no write before the delete');
    const deletion = temp.journal.chunks.dueDeletions(T0 + 1000, 10)[0]!;
    assert.equal(deletion.chunkId, 'k1');
    assert.equal(temp.journal.chunks.hasPendingDeletions('mythos'), true);
    temp.journal.chunks.markChunkDeleted('k1', deletion.revision);
    assert.equal(temp.journal.chunks.hasPendingDeletions('mythos'), false);
    assert.deepEqual(
      temp.journal.chunks.dueChunks(T0 + 1000, 10).map((c) => c.chunkId),
      ['k1'],
      'rewritten without the forgotten message, under the same id',
    );
    assert.deepEqual(
      temp.journal.chunks.chunkMessages('k1').map((m) => m.messageId),
      ['b', 'c'],
    );

    await temp.journal.forgetting.forgetMessages('mythos', [{ id: 'b' }, { id: 'c' }], T0 + 2000);
    temp.journal.chunks.markChunkDeleted('k1', temp.journal.chunks.dueDeletions(T0 + 2000, 10)[0]!.revision);
    assert.equal(temp.journal.chunks.hasChunk('k1'), false, 'a chunk with no message left is gone');
  });
});
