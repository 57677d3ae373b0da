import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { MemoryMessage } from '../chunking/memory-message.js';
import { conversationKey } from './message-journal.js';
import { useTempMessageJournal } from './test-support/temp-message-journal.js';

const T0 = Date.UTC(2026, 11, 3, 9);
const say = (messageId: string, text: string, more: Partial<MemoryMessage> = {}): MemoryMessage => ({
  bot: 'mythos',
  source: 'discord',
  messageId,
  speakerKind: 'user',
  text,
  ts: T0,
  channelId: 'c1',
  ...more,
});

describe('the message journal records each message once, whatever the client re-sends', () => {
  const temp = useTempMessageJournal();

  test('new messages wait for a chunk in their conversation; a re-sent window is duplicates', () => {
    const window = [
      say('a', 'hello', { ts: T0 + 1 }),
      say('b', 'hi', { ts: T0 }),
      say('c', 'elsewhere', { channelId: 'c2' }),
    ];
    assert.deepEqual(temp.journal.recordMessages(window, T0 + 100), {
      accepted: 3,
      duplicates: 0,
      edited: 0,
      forgotten: 0,
    });
    assert.deepEqual(temp.journal.recordMessages(window, T0 + 200), {
      accepted: 0,
      duplicates: 3,
      edited: 0,
      forgotten: 0,
    });
    const c1 = conversationKey({ source: 'discord', channelId: 'c1' });
    assert.deepEqual(
      temp.journal
        .pendingConversations()
        .map((p) => [p.conversation, p.lastArrivalMs])
        .sort(),
      [
        [c1, T0 + 100],
        [conversationKey({ source: 'discord', channelId: 'c2' }), T0 + 100],
      ],
      'a duplicate does not count as a new arrival',
    );
    assert.deepEqual(
      temp.journal.pendingMessages('mythos', c1).map((m) => m.messageId),
      ['b', 'a'],
      'oldest first, by the time it was said',
    );
    assert.equal(temp.journal.unstoredInConversation('mythos', c1), 2);
  });

  test('the same id from another source or bot is another message', () => {
    temp.journal.recordMessages([say('a', 'hello')], T0);
    const result = temp.journal.recordMessages(
      [say('a', 'hello', { source: 'hermes' }), say('a', 'hello', { bot: 'other' })],
      T0,
    );
    assert.equal(result.accepted, 2);
  });

  test('an edit replaces the text and plans the stored chunk holding it again', () => {
    temp.journal.recordMessages([say('a', 'I live in Porto')], T0);
    temp.journal.chunks.planChunk(
      { chunkId: 'k1', bot: 'mythos', collection: 'mem', source: 'discord', messageIds: ['a'] },
      T0,
    );
    temp.journal.chunks.markChunkStored('k1', 0, T0);
    assert.equal(temp.journal.queueDepth().storedChunks, 1);
    const edited = temp.journal.recordMessages([say('a', 'I live in Lisbon')], T0 + 10);
    assert.equal(edited.edited, 1);
    assert.equal(temp.journal.chunks.chunkMessages('k1')[0]?.text, 'I live in Lisbon');
    assert.deepEqual(temp.journal.queueDepth(), { pendingMessages: 0, plannedChunks: 1, storedChunks: 0 });
    assert.equal(temp.journal.botCounts('mythos').planned, 1);
  });

  test('a forgotten id stays forgotten: its re-send is counted, not journaled', async () => {
    temp.journal.recordMessages([say('a', 'secret'), say('b', 'fine')], T0);
    await temp.journal.forgetting.forgetMessages('mythos', [{ id: 'a' }], T0 + 10);
    assert.deepEqual(temp.journal.recordMessages([say('a', 'secret'), say('b', 'fine')], T0 + 20), {
      accepted: 0,
      duplicates: 1,
      edited: 0,
      forgotten: 1,
    });
    const counts = temp.journal.botCounts('mythos');
    assert.deepEqual(
      { bySource: counts.bySource, pending: counts.pending, forgotten: counts.forgotten },
      { bySource: { discord: 1 }, pending: 1, forgotten: 1 },
    );
  });

  test('a bot’s memory span runs from its oldest to its newest message; none without messages', () => {
    assert.equal(temp.journal.memorySpan('mythos'), undefined);
    temp.journal.recordMessages([say('a', 'x', { ts: T0 + 5 }), say('b', 'y', { ts: T0 - 5 })], T0);
    assert.deepEqual(temp.journal.memorySpan('mythos'), { oldestMs: T0 - 5, newestMs: T0 + 5 });
  });

  test('the model recorded for a collection is the first one written with it', () => {
    temp.journal.recordCollectionModel('mem', 'hashing', 16, T0);
    temp.journal.recordCollectionModel('mem', 'other', 32, T0 + 1);
    assert.deepEqual(temp.journal.collectionModel('mem'), { model: 'hashing', dimensions: 16 });
    assert.equal(temp.journal.collectionModel('unknown'), undefined);
  });

  test('what it acknowledged survives a reopen', async () => {
    temp.journal.recordMessages([say('a', 'kept')], T0);
    await temp.journal.flush();
    temp.reopen();
    assert.equal(temp.journal.recordMessages([say('a', 'kept')], T0).duplicates, 1);
  });
});
