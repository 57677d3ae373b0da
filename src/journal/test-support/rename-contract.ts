/**
 * @module The rename-pass cases of the journal contract (journal-contract.ts calls them, on every backend): a link
 * change requests its rename in its own transaction, the chunks of accounts are found through the messages, and a
 * pass queues their rewrite, deleting only the requests it read; progress counts what is left.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MemoryMessage } from '../../chunking/memory-message.js';
import type { Journal } from '../journal.js';
import type { AccountKey } from '../journal-people.js';

const user = (value: string): AccountKey => ({ kind: 'user', value });
const persona = (value: string): AccountKey => ({ kind: 'persona', value });

/** Defines the cases; `connections` gives the suite's two connections once they are open. */
export function defineRenameCases(connections: () => { a: Journal; b: Journal }, newBot: () => string): void {
  const versions = async (journal: Journal, bot: string) =>
    (await journal.renames.requests(bot)).map((r) => [r.account.value, r.version, r.requestedAt]);

  test('renames: every link change requests, with it, the rename of the accounts it touches', async () => {
    const { a, b } = connections();
    const bot = newBot();
    await a.people.create(bot, { id: 'p1', name: 'Anna', accounts: [user('discord:1'), user('tg:1')] }, 10);
    assert.deepEqual(await versions(b, bot), [
      ['discord:1', 1, 10],
      ['tg:1', 1, 10],
    ]);
    assert.ok((await b.renames.botsWaiting()).includes(bot));
    // Refused (an account linked elsewhere): nothing is requested, as nothing changed.
    await a.people.create(bot, { id: 'p2', name: 'Bob', accounts: [user('slack:1'), user('discord:1')] }, 11);
    await a.people.create(bot, { id: 'p3', name: 'Cy', accounts: [] }, 11);
    assert.deepEqual(await a.people.update(bot, 'p3', { name: 'X', add: [user('tg:1')] }, 12), {
      account: user('tg:1'),
      person: { id: 'p1', name: 'Anna' },
    });
    assert.deepEqual(await versions(b, bot), [
      ['discord:1', 1, 10],
      ['tg:1', 1, 10],
    ]);
    // A link: that account; a rename: every account of the person; an unlink: that account; a delete: all left.
    await b.people.update(bot, 'p1', { add: [user('slack:2')] }, 20);
    await b.people.update(bot, 'p1', { name: 'Anne' }, 30);
    await a.people.update(bot, 'p1', { remove: [user('tg:1')] }, 40);
    assert.deepEqual(await versions(b, bot), [
      ['discord:1', 2, 30],
      ['slack:2', 2, 30],
      ['tg:1', 3, 40],
    ]);
    assert.equal(await a.people.remove(bot, 'p1', 50), true);
    assert.deepEqual(await versions(b, bot), [
      ['discord:1', 3, 50],
      ['slack:2', 3, 50],
      ['tg:1', 3, 40],
    ]);
  });

  test('renames: a change requests no rename of the accounts it names unchanged (a seed the alias already named)', async () => {
    const { a, b } = connections();
    const bot = newBot();
    const namesUnchanged = [user('1'), user('tg:1')];
    await a.people.create(bot, { id: 'p1', name: 'Anna', accounts: [user('1'), user('discord:1')] }, 10, {
      namesUnchanged,
    });
    assert.equal(await b.people.update(bot, 'p1', { add: [user('tg:1')] }, 20, { namesUnchanged }), true);
    assert.deepEqual(await versions(b, bot), [['discord:1', 1, 10]]);
    assert.deepEqual((await b.people.get(bot, 'p1'))?.accounts.map((account) => account.value).sort(), [
      '1',
      'discord:1',
      'tg:1',
    ]);
  });

  test('renames: the chunks of accounts are found by user id, Discord id, persona and mention, for all at once', async () => {
    const { a, b } = connections();
    const bot = newBot();
    const say = (id: string, source: string, extra: Partial<MemoryMessage>): MemoryMessage => ({
      bot,
      source,
      messageId: id,
      speakerKind: 'user',
      text: `text ${id}`,
      ts: 1,
      ...extra,
    });
    const chunked: [string, MemoryMessage][] = [
      ['c1', say('d1', 'discord', { userId: '1234' })],
      ['c2', say('h1', 'hermes', { userId: 'discord:1234' })],
      ['c3', say('s1', 'sillytavern', { speakerName: ' Anna ' })],
      ['c4', say('m1', 'api', { userId: 'x:9', text: 'hi <@!1234> there' })],
      ['c5', say('m2', 'api', { userId: 'x:9', text: 'hi <@12345>, not 1234' })],
      ['c6', say('t1', 'hermes', { userId: 'tg:5' })],
      ['c7', say('a1', 'sillytavern', { speakerKind: 'self', speakerName: 'Anna' })],
      ['c8', say('o1', 'api', { userId: '1234' })],
    ];
    await a.recordMessages([...chunked.map(([, m]) => m), say('p1', 'discord', { userId: '1234' })], 1);
    for (const [chunk, m] of chunked) {
      await a.chunks.planChunk(
        { chunkId: `${bot}-${chunk}`, bot, collection: 'col', source: m.source, messageIds: [m.messageId] },
        2,
      );
    }
    const found = async (accounts: AccountKey[], of = bot) =>
      (await b.renames.matchingChunks(of, accounts)).map((id) => id.slice(bot.length + 1));
    // discord:1234 is the recorder's bare id under source discord, and the Hermes plugin's discord:1234;
    // the bare 1234 an api client sent is another account. A persona is a name with no user id, trimmed.
    assert.deepEqual(await found([user('discord:1234'), persona('Anna')]), ['c1', 'c2', 'c3', 'c4']);
    assert.deepEqual(await found([user('tg:5')]), ['c6']);
    // The bare 1234 is the api client's account only: in Discord's source those digits are Discord user 1234.
    assert.deepEqual(await found([user('1234')]), ['c8']);
    assert.deepEqual(await found([]), []);
    assert.deepEqual(await found([user('discord:1234')], newBot()), []);
  });

  test('renames: a pass queues its chunks and deletes only the requests it read; progress counts what is left', async () => {
    const { a, b } = connections();
    const bot = newBot();
    const ids = ['m1', 'm2', 'm3', 'm3b'];
    await a.recordMessages(
      ids.map((id) => ({
        bot,
        source: 'api',
        messageId: id,
        speakerKind: 'user',
        text: id,
        ts: 1,
        userId: 'x:1',
      })),
      1,
    );
    const plan = (chunk: string, messageIds: string[]) =>
      a.chunks.planChunk(
        { chunkId: `${bot}-${chunk}`, bot, collection: 'col', source: 'api', messageIds },
        2,
      );
    await plan('c1', ['m1']);
    await plan('c2', ['m2']);
    await plan('c3', ['m3', 'm3b']);
    await a.chunks.markChunkStored(`${bot}-c1`, 0, 3);
    await a.chunks.markChunkStored(`${bot}-c3`, 0, 3);
    await a.forgetting.forgetMessages(bot, [{ id: 'm3b' }], 4); // c3 now waits for its point's delete
    await a.people.create(bot, { id: 'p1', name: 'X', accounts: [user('x:1')] }, 5);
    const read = await b.renames.requests(bot);
    await a.people.update(bot, 'p1', { name: 'Y' }, 6); // a change after the pass read: its own pass
    const chunks = await b.renames.matchingChunks(bot, [user('x:1')]);
    // c1 and c2 replanned; c3, waiting for its point's delete, noted only: its old point (old names, old dmWith)
    // is stored until the delete replans it.
    assert.equal(await b.renames.queueRewrites(bot, read, chunks, 7), 3, 'c1, c2 and c3');
    // Replanned as an edit replans: the write of the revision read before is not taken as current.
    assert.equal(await a.chunks.markChunkStored(`${bot}-c1`, 0, 8), false);
    assert.deepEqual(await versions(a, bot), [['x:1', 2, 6]]);
    assert.deepEqual(
      (await a.renames.progress()).find((p) => p.bot === bot),
      { bot, accountsWaiting: 1, chunksLeft: 3 },
    );
    assert.equal(await b.renames.isRenaming(bot), true);
    assert.equal(await a.renames.queueRewrites(bot, await a.renames.requests(bot), [], 9), 0);
    assert.ok(!(await b.renames.botsWaiting()).includes(bot));
    assert.equal(await b.chunks.markChunkStored(`${bot}-c1`, 1, 10), true);
    assert.deepEqual(
      (await a.renames.progress()).find((p) => p.bot === bot),
      { bot, accountsWaiting: 0, chunksLeft: 2 },
    );
    assert.equal(await b.renames.isRenaming(bot), true, 'a queued chunk not yet rewritten');
    assert.equal(await b.chunks.markChunkStored(`${bot}-c2`, 1, 10), true);
    assert.equal(await b.renames.isRenaming(bot), true, 'c3’s old point waits for its delete');
    const [deletion] = (await b.chunks.dueDeletions(11, 10)).filter((c) => c.chunkId === `${bot}-c3`);
    await b.chunks.markChunkDeleted(`${bot}-c3`, deletion!.revision, 11); // replanned: m3 is left
    assert.equal(await b.renames.isRenaming(bot), true, 'c3 deleted, not yet rewritten');
    const [replanned] = await b.chunks.plannedChunks([`${bot}-c3`]);
    assert.equal(await b.chunks.markChunkStored(`${bot}-c3`, replanned!.revision, 12), true);
    assert.equal(
      (await a.renames.progress()).find((p) => p.bot === bot),
      undefined,
    );
    assert.equal(await b.renames.isRenaming(bot), false, 'every queued chunk rewritten');
    // Once dropped, a chunk replanned for another reason (an edit) is not counted as the rename's.
    await b.renames.dropFinished();
    await a.recordMessages(
      [{ bot, source: 'api', messageId: 'm1', speakerKind: 'user', text: 'edited', ts: 1, userId: 'x:1' }],
      13,
    );
    assert.equal(
      (await a.renames.progress()).find((p) => p.bot === bot),
      undefined,
    );
    assert.equal(await b.renames.isRenaming(bot), false, 'an edit is no rename');
  });

  test('renames: a snapshot carries the renames left, and a restore requests renames as a link change does', async () => {
    const { a, b } = connections();
    const bot = newBot();
    const other = newBot();
    await a.recordMessages(
      [{ bot, source: 'api', messageId: 'm1', speakerKind: 'user', text: 'm1', ts: 1, userId: 'x:1' }],
      1,
    );
    await a.chunks.planChunk(
      { chunkId: `${bot}-c1`, bot, collection: 'col', source: 'api', messageIds: ['m1'] },
      2,
    );
    await a.people.create(bot, { id: 'p1', name: 'X', accounts: [user('x:1')] }, 3);
    await a.renames.queueRewrites(bot, [], [`${bot}-c1`], 4); // queued; the request stays
    const from = { bot, collection: 'col' };
    const to = { bot: other, collection: 'col2' };
    assert.deepEqual(
      (await b.snapshots.readRows('rename_chunks', from)).map((row) => row.chunk_id),
      [`${bot}-c1`],
    );
    const requests = await b.snapshots.readRows('rename_requests', from);
    assert.equal(await b.snapshots.insertRows('rename_requests', requests, from, to), 1);
    assert.deepEqual(await versions(a, other), [['x:1', 1, 3]]);
    await b.renames.requestRenames(other, [user('x:1'), user('y:2')], 5);
    assert.deepEqual(await versions(a, other), [
      ['x:1', 2, 5],
      ['y:2', 1, 5],
    ]);
    assert.equal(await a.renames.isRenaming(other), true);
  });
}
