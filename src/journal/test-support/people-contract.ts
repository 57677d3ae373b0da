/**
 * @module The people cases of the journal contract (journal-contract.ts calls them, on every backend): links
 * made on one connection read on the other, one person per account, all-or-nothing updates, the accounts seen
 * in messages, and link codes used once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MemoryMessage } from '../../chunking/memory-message.js';
import type { Journal } from '../journal.js';
import type { AccountKey } from '../journal-people.js';
import { defineLinkCodeCases } from './link-code-contract.js';

const user = (value: string): AccountKey => ({ kind: 'user', value });
const persona = (value: string): AccountKey => ({ kind: 'persona', value });

/** Defines the cases; `connections` gives the suite's two connections once they are open. */
export function definePeopleCases(connections: () => { a: Journal; b: Journal }, newBot: () => string): void {
  test('people: a person made on one connection is read on the other, an account stays with one person', async () => {
    const { a, b } = connections();
    const bot = newBot();
    const other = newBot();
    const accounts = [user('discord:1234'), user('telegram:5678'), persona('Anna')];
    assert.equal(await a.people.create(bot, { id: 'p1', name: 'Anna', accounts }, 10), undefined);
    const anna = await b.people.get(bot, 'p1');
    assert.deepEqual(anna, {
      id: 'p1',
      name: 'Anna',
      createdAt: 10,
      updatedAt: 10,
      accounts: [persona('Anna'), user('discord:1234'), user('telegram:5678')],
    });
    assert.equal((await b.people.personOf(bot, user('telegram:5678')))?.id, 'p1');
    assert.equal(await b.people.personOf(bot, user('telegram:9')), undefined);
    assert.equal(await b.people.personOf(other, user('telegram:5678')), undefined, 'bots are kept apart');
    // The same account for another person: refused, naming the owner, and nothing of it written.
    assert.deepEqual(
      await b.people.create(
        bot,
        { id: 'p2', name: 'Bob', accounts: [user('slack:1'), user('discord:1234')] },
        11,
      ),
      { account: user('discord:1234'), person: { id: 'p1', name: 'Anna' } },
    );
    assert.deepEqual(
      (await a.people.list(bot)).map((p) => p.id),
      ['p1'],
    );
    assert.equal(await a.people.personOf(bot, user('slack:1')), undefined);
    // Another bot may link the same account to its own person.
    assert.equal(await b.people.create(other, { id: 'p1', name: 'Anna B', accounts }, 12), undefined);
    assert.equal((await a.people.get(bot, 'p1'))?.name, 'Anna');
  });

  test('people: an update renames, links and unlinks all or nothing; remove unlinks everything', async () => {
    const { a, b } = connections();
    const bot = newBot();
    await a.people.create(bot, { id: 'p1', name: 'Anna', accounts: [user('discord:1')] }, 10);
    await a.people.create(bot, { id: 'p2', name: 'Bob', accounts: [user('discord:2')] }, 10);
    assert.equal(
      await b.people.update(bot, 'p1', { name: 'Anne', add: [user('telegram:1'), user('discord:1')] }, 20),
      true,
    );
    let anna = await a.people.get(bot, 'p1');
    assert.equal(anna?.name, 'Anne');
    assert.equal(anna?.updatedAt, 20);
    assert.deepEqual(anna?.accounts, [user('discord:1'), user('telegram:1')]);
    // Taking Bob's account fails, and the rename and unlink asked with it do not happen.
    assert.deepEqual(
      await a.people.update(
        bot,
        'p1',
        { name: 'X', add: [user('discord:2')], remove: [user('telegram:1')] },
        30,
      ),
      { account: user('discord:2'), person: { id: 'p2', name: 'Bob' } },
    );
    anna = await b.people.get(bot, 'p1');
    assert.equal(anna?.name, 'Anne');
    assert.deepEqual(anna?.accounts, [user('discord:1'), user('telegram:1')]);
    // Removing an account that is someone else's leaves it with them.
    assert.equal(
      await a.people.update(bot, 'p1', { remove: [user('telegram:1'), user('discord:2')] }, 40),
      true,
    );
    assert.deepEqual((await b.people.get(bot, 'p1'))?.accounts, [user('discord:1')]);
    assert.deepEqual((await b.people.get(bot, 'p2'))?.accounts, [user('discord:2')]);
    assert.equal(await a.people.update(bot, 'nobody', { name: 'Y' }, 50), false);
    assert.equal(await b.people.remove(bot, 'p1', 55), true);
    assert.equal(await b.people.remove(bot, 'p1', 56), false);
    assert.equal(await a.people.personOf(bot, user('discord:1')), undefined);
    // A freed account can be linked again.
    assert.equal(await a.people.update(bot, 'p2', { add: [user('discord:1')] }, 60), true);
  });

  test('people: the accounts seen in messages, by source, with names, counts and the last time', async () => {
    const { a, b } = connections();
    const bot = newBot();
    const message = (id: string, extra: Partial<MemoryMessage>): MemoryMessage => ({
      bot,
      source: 'discord',
      messageId: id,
      speakerKind: 'user',
      text: `text ${id}`,
      ts: 100,
      ...extra,
    });
    await a.recordMessages(
      [
        message('d1', { userId: '1234', speakerName: 'anna_d', ts: 100 }),
        message('d2', { userId: '1234', speakerName: 'Anna', ts: 300 }),
        message('d3', { speakerKind: 'self', ts: 400 }),
        message('h1', { source: 'hermes', userId: 'telegram:5678', speakerName: 'Anna T', ts: 200 }),
        message('s1', { source: 'sillytavern', speakerName: 'Anna\u0000x', ts: 50 }),
      ],
      1,
    );
    assert.deepEqual(await b.people.seenAccounts(bot), [
      {
        account: persona('Anna\u0000x'),
        source: 'sillytavern',
        names: ['Anna\u0000x'],
        messages: 1,
        lastSeen: 50,
      },
      {
        account: user('discord:1234'),
        source: 'discord',
        names: ['Anna', 'anna_d'],
        messages: 2,
        lastSeen: 300,
      },
      { account: user('telegram:5678'), source: 'hermes', names: ['Anna T'], messages: 1, lastSeen: 200 },
    ]);
  });

  test('people: a persona match finds the messages sent under that name with no user id, and only those', async () => {
    const { a, b } = connections();
    const bot = newBot();
    const base = { bot, messageId: '', speakerKind: 'user' as const, text: 't', ts: 5 };
    await a.recordMessages(
      [
        { ...base, source: 'sillytavern', messageId: 's1', speakerName: 'Ann\u0000a' },
        { ...base, source: 'sillytavern', messageId: 's2', speakerName: 'Ann\u0000a', speakerKind: 'self' },
        { ...base, source: 'discord', messageId: 'd1', speakerName: 'Ann\u0000a', userId: '1' },
        { ...base, source: 'sillytavern', messageId: 's3', speakerName: 'Bob' },
      ],
      1,
    );
    assert.deepEqual(await b.forgetting.findMatching(bot, { field: 'persona', value: 'Ann\u0000a' }), [
      { source: 'sillytavern', id: 's1' },
    ]);
    assert.deepEqual(
      await b.forgetting.findMatching(bot, { field: 'persona', value: 'Ann\u0000a' }, ['discord']),
      [],
    );
  });

  test('people: the DM channels of a person, from every account, in every source that saved them', async () => {
    const { a, b } = connections();
    const bot = newBot();
    const base = { bot, speakerKind: 'user' as const, text: 't', ts: 5, isDm: true };
    await a.recordMessages(
      [
        { ...base, source: 'discord', messageId: 'd1', userId: '1234', channelId: 'dm-d' },
        { ...base, source: 'api', messageId: 'x1', userId: '1234', channelId: 'dm-not-discord' },
        { ...base, source: 'hermes', messageId: 'h1', userId: 'telegram:5678', channelId: 'dm-t' },
        { ...base, source: 'hermes', messageId: 'h2', userId: 'discord:1234', channelId: 'dm-h' },
        {
          ...base,
          source: 'hermes',
          messageId: 'h3',
          userId: 'telegram:5678',
          channelId: 'group',
          isDm: false,
        },
        { ...base, source: 'hermes', messageId: 'h4', userId: 'telegram:9', channelId: 'dm-other' },
      ],
      1,
    );
    assert.deepEqual(
      await b.people.dmChannels(bot, [user('discord:1234'), user('telegram:5678'), persona('A')]),
      [
        { source: 'discord', channelId: 'dm-d' },
        { source: 'hermes', channelId: 'dm-h' },
        { source: 'hermes', channelId: 'dm-t' },
      ],
    );
    assert.deepEqual(await b.people.dmChannels(bot, []), []);
    // A bare id is an HTTP client's own account: in Discord's source the same digits are Discord user 1234.
    assert.deepEqual(await b.people.dmChannels(bot, [user('1234')]), [
      { source: 'api', channelId: 'dm-not-discord' },
    ]);
  });

  test('people: an account stored in an older spelling is found by its spelling today', async () => {
    const { a, b } = connections();
    const bot = newBot();
    const accounts = [user('Discord:600'), user(' telegram : 7'), user('discord:ann\u00a0'), persona(' Ivy ')];
    assert.equal(await a.people.create(bot, { id: 'p1', name: 'Ivy', accounts }, 10), undefined);
    for (const today of [user('discord:600'), user('telegram:7'), user('discord:ann'), persona('Ivy')]) {
      assert.equal((await b.people.personOf(bot, today))?.id, 'p1', today.value);
    }
    assert.equal(await b.people.personOf(bot, user('discord:60')), undefined);
    assert.equal(await b.people.personOf(bot, user('telegram:600')), undefined);
  });

  test("people: today's spelling held exactly by another person is theirs, not the older one's holder's", async () => {
    const { a, b } = connections();
    const bot = newBot();
    // The state start-up leaves and warns about: Zed's account in an older spelling, Bob's in today's.
    const people = [
      { id: 'z-bob', name: 'Bob', accounts: [user('discord:561')] },
      { id: 'a-zed', name: 'Zed', accounts: [user('Discord:561')] },
      { id: 'ivy', name: 'Ivy', accounts: [user('Discord:700')] },
    ];
    for (const person of people) assert.equal(await a.people.create(bot, person, 1), undefined);
    const base = { bot, speakerKind: 'user' as const, text: 't', ts: 5, isDm: true };
    await a.recordMessages(
      [
        { ...base, source: 'discord', messageId: 'd1', userId: '561', channelId: 'dm-bob' },
        { ...base, source: 'hermes', messageId: 'h1', userId: 'discord:561', channelId: 'dm-bob-h' },
        { ...base, source: 'hermes', messageId: 'h2', userId: 'Discord:561', channelId: 'dm-zed' },
        { ...base, source: 'discord', messageId: 'd2', userId: '700', channelId: 'dm-ivy' },
      ],
      1,
    );
    const dmsOf = async (id: string) => b.people.dmChannels(bot, (await b.people.get(bot, id))?.accounts ?? []);
    assert.deepEqual(await dmsOf('a-zed'), [{ source: 'hermes', channelId: 'dm-zed' }]);
    assert.deepEqual(await dmsOf('z-bob'), [
      { source: 'discord', channelId: 'dm-bob' },
      { source: 'hermes', channelId: 'dm-bob-h' },
    ]);
    // Held by nobody else, today's spelling still reaches the older spelling's holder.
    assert.deepEqual(await dmsOf('ivy'), [{ source: 'discord', channelId: 'dm-ivy' }]);
  });

  defineLinkCodeCases(connections, newBot);
}
