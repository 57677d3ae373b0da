import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { MemoryMessage } from '../chunking/memory-message.js';
import { useTempMessageJournal } from './test-support/temp-message-journal.js';

const T0 = Date.UTC(2026, 11, 2, 9);
const say = (messageId: string, more: Partial<MemoryMessage> = {}): MemoryMessage => ({
  bot: 'mythos',
  source: 'discord',
  messageId,
  speakerKind: 'user',
  text: `message ${messageId}`,
  ts: T0,
  ...more,
});

describe('the forget journal: tombstones, chunk marks and the audit', () => {
  const temp = useTempMessageJournal();
  /** Stores a and b as chunk k1; c waits for a chunk. */
  const seed = () => {
    temp.journal.recordMessages([say('a'), say('b'), say('c', { ts: T0 + 1 })], T0);
    temp.journal.chunks.planChunk(
      { chunkId: 'k1', bot: 'mythos', collection: 'mem', source: 'discord', messageIds: ['a', 'b'] },
      T0,
    );
    temp.journal.chunks.markChunkStored('k1', 0, T0);
  };

  test('forgetting counts what it removed and marks the chunks that held it', async () => {
    seed();
    assert.deepEqual(
      temp.journal.chunks.storedChunks('mythos').map((c) => c.chunkId),
      ['k1'],
    );
    const one = await temp.journal.forgetting.forgetMessages('mythos', [{ id: 'a' }, { id: 'c' }], T0 + 10);
    assert.deepEqual(one, {
      messagesForgotten: 2,
      pendingDropped: 1,
      pointsDeleted: 0,
      pointsRewritten: 1,
      chunkIds: ['k1'],
    });
    const rest = await temp.journal.forgetting.forgetMessages('mythos', [{ id: 'b' }], T0 + 20);
    assert.equal(rest.pointsDeleted, 1, 'the chunk lost its last message: its point goes');
    assert.equal(rest.pointsRewritten, 0);
  });

  test('a tombstone keeps a forgotten id from coming back with a re-sent window', async () => {
    seed();
    await temp.journal.forgetting.forgetMessages('mythos', [{ id: 'a' }], T0 + 10);
    assert.deepEqual([...temp.journal.forgetting.forgottenAmong('mythos', ['a', 'b', ''])], ['a']);
    assert.deepEqual([...temp.journal.forgetting.journaledAmong('mythos', 'discord', ['a', 'b'])], ['b']);
    assert.equal(temp.journal.recordMessages([say('a')], T0 + 20).forgotten, 1);
    assert.deepEqual([...temp.journal.forgetting.journaledAmong('mythos', 'discord', ['a'])], []);
  });

  test('a forget scoped to one source leaves the same id in another, and tombstones only that source', async () => {
    temp.journal.recordMessages([say('x'), say('x', { source: 'hermes' })], T0);
    const scoped = await temp.journal.forgetting.forgetMessages('mythos', [{ id: 'x' }], T0 + 10, [
      'discord',
    ]);
    assert.equal(scoped.messagesForgotten, 1);
    assert.deepEqual([...temp.journal.forgetting.journaledAmong('mythos', 'hermes', ['x'])], ['x']);
    // Still journaled in hermes: not "forgotten" for recall, whose filter is by id.
    assert.deepEqual([...temp.journal.forgetting.forgottenAmong('mythos', ['x'])], []);
    assert.equal(
      temp.journal.recordMessages([say('x')], T0 + 20).forgotten,
      1,
      'discord may not bring it back',
    );
    assert.equal(
      temp.journal.recordMessages([say('x', { source: 'hermes', text: 'new' })], T0 + 20).edited,
      1,
    );
    // An unscoped forget widens the tombstone to every source; it never narrows.
    await temp.journal.forgetting.forgetMessages('mythos', [{ id: 'x' }], T0 + 30);
    assert.equal(temp.journal.recordMessages([say('x', { source: 'mcp' })], T0 + 40).forgotten, 1);
  });

  test('forgetting a user reaches their messages and the agent’s replies in their direct messages only', () => {
    temp.journal.recordMessages(
      [
        say('u1', { userId: 'helen', channelId: 'dm', isDm: true }),
        say('r1', { speakerKind: 'self', channelId: 'dm', isDm: true }),
        say('u2', { userId: 'helen', channelId: 'public' }),
        say('r2', { speakerKind: 'self', channelId: 'public' }),
        say('o1', { userId: 'omar', channelId: 'public' }),
      ],
      T0,
    );
    const ids = (targets: { id: string }[]) => targets.map((t) => t.id).sort();
    assert.deepEqual(
      ids(temp.journal.forgetting.findMatching('mythos', { field: 'userId', value: 'helen' })),
      ['r1', 'u1', 'u2'],
    );
    assert.deepEqual(
      ids(
        temp.journal.forgetting.findMatching('mythos', { field: 'channelId', value: 'public' }, ['hermes']),
      ),
      [],
      'limited to the sources the key may reach',
    );
  });

  test('the audit lists forgets newest first, by bot, up to the limit', () => {
    for (const [at, bot] of [
      [1, 'mythos'],
      [2, 'other'],
      [3, 'mythos'],
    ] as const) {
      temp.journal.forgetting.recordAudit({
        at,
        actor: 'admin',
        bot,
        selector: { message_ids: [`m${at}`] },
        result: { n: at },
      });
    }
    const mythos = temp.journal.forgetting.listAudit({ bot: 'mythos', limit: 10 });
    assert.deepEqual(
      mythos.map((e) => e.at),
      [3, 1],
    );
    assert.deepEqual(mythos[0]!.selector, { message_ids: ['m3'] });
    assert.deepEqual(
      temp.journal.forgetting.listAudit({ limit: 1 }).map((e) => e.bot),
      ['mythos'],
    );
  });
});
