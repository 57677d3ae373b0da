/**
 * @module The Discord state cases of the journal contract (journal-contract.ts calls them, on every backend):
 * what one replica writes the other reads, each write's rules, and bots kept apart.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Journal } from '../journal.js';

/** Defines the cases; `connections` gives the suite's two connections once they are open. */
export function defineDiscordStateCases(
  connections: () => { a: Journal; b: Journal },
  newBot: () => string,
): void {
  test('Discord state: opt-outs, rules and back-fills written on one connection are read on the other', async () => {
    const { a, b } = connections();
    const bot = newBot();
    const other = newBot();
    assert.equal(await a.discord.setOptedOut(bot, 'u1', true, 10), true);
    assert.equal(await b.discord.setOptedOut(bot, 'u1', true, 11), false, 'already opted out');
    await a.discord.setOptedOut(bot, 'u2', true, 12);
    assert.equal(await b.discord.setOptedOut(bot, 'u2', false, 13), true);
    assert.equal(await b.discord.setOptedOut(bot, 'u3', false, 13), false, 'was never opted out');
    await a.discord.setChannelRule(bot, 'c1', 'allow');
    await b.discord.setChannelRule(bot, 'c1', 'deny');
    await a.discord.setChannelRule(bot, 'c2', 'allow');
    await a.discord.markBackfilled(bot, 'c2', 20);
    await b.discord.markBackfilled(bot, 'c2', 21);
    await a.discord.setOptedOut(other, 'u9', true, 1);
    const state = await b.discord.readState(bot);
    assert.deepEqual(state.optedOut, ['u1']);
    assert.deepEqual(
      [...state.channelRules].sort((x, y) => x.channelId.localeCompare(y.channelId)),
      [
        { channelId: 'c1', rule: 'deny' },
        { channelId: 'c2', rule: 'allow' },
      ],
    );
    assert.deepEqual(state.backfilled, ['c2']);
    assert.equal(state.connectedUntil, undefined);
    assert.deepEqual((await a.discord.readState(other)).optedOut, ['u9']);
  });

  test('Discord state: forgets keep their latest time; threads keep a known kind and go with their parent', async () => {
    const { a, b } = connections();
    const bot = newBot();
    await a.discord.noteForgotten(bot, 'user', 'u1', 50);
    await b.discord.noteForgotten(bot, 'user', 'u1', 40);
    await b.discord.noteForgotten(bot, 'channel', 'c1', 60);
    await a.discord.noteThread(bot, 't-public', 'general', true);
    await a.discord.noteThread(bot, 't-private', 'general', false);
    await a.discord.noteThread(bot, 't-old', 'general');
    await b.discord.noteThread(bot, 't-public', 'general');
    await b.discord.noteThread(bot, 't-secret', 'secret', true);
    let state = await b.discord.readState(bot);
    assert.deepEqual(
      [...state.forgotten].sort((x, y) => x.kind.localeCompare(y.kind)),
      [
        { kind: 'channel', id: 'c1', at: 60 },
        { kind: 'user', id: 'u1', at: 50 },
      ],
    );
    assert.deepEqual(
      [...state.threads].sort((x, y) => x.threadId.localeCompare(y.threadId)),
      [
        { threadId: 't-old', parentId: 'general', isPublic: null },
        { threadId: 't-private', parentId: 'general', isPublic: false },
        { threadId: 't-public', parentId: 'general', isPublic: true },
        { threadId: 't-secret', parentId: 'secret', isPublic: true },
      ],
    );
    await a.discord.dropThreads(bot, ['t-public', 'secret']);
    state = await a.discord.readState(bot);
    assert.deepEqual(state.threads.map((t) => t.threadId).sort(), ['t-old', 't-private']);
  });

  test('Discord state: the last gateway connection mark wins; a rolled-back write leaves nothing', async () => {
    const { a, b } = connections();
    const bot = newBot();
    // A mark from a clock that ran ahead must not hide a later holder's gap (review s24, finding 6).
    await a.discord.markConnected(bot, 100);
    await b.discord.markConnected(bot, 90);
    assert.equal((await b.discord.readState(bot)).connectedUntil, 90);
    await a
      .transaction(async (tx) => {
        await tx.discord.setOptedOut(bot, 'u1', true, 1);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    assert.deepEqual((await b.discord.readState(bot)).optedOut, []);
  });
}
