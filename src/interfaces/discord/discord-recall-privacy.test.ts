import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startFakeChat, type FakeChat } from './companion/test-support/fake-chat.js';
import {
  BOT_USER,
  type DiscordHarness,
  DM_CHANNEL,
  everyoneRole,
  GENERAL,
  GUILD,
  guildPayload,
  HELEN,
  messagePayload,
  OFFTOPIC,
  recordChannelWithThreads,
  rolePayload,
  SAM,
  SECRET,
  startDiscordHarness,
  textChannel,
  threadPayload,
  VIEW_CHANNEL,
} from './test-support/discord-harness.js';
import { ask, command } from './test-support/discord-interactions.js';

const PORTO = '100000000000000009';
const PORTO_CHAT = '200000000000000009';

/** A companion answering from `chat` when mentioned. */
const companionAnswering = (chat: FakeChat) => ({
  baseUrl: chat.url,
  model: 'test-model',
  systemPrompt: 'You are Mythos.',
  replyChannels: [],
  contextMessages: 5,
  timeoutMs: 10_000,
});

/** Every word of every memory below, so the hashing embedder ranks them all and only the scope decides. */
const QUERY = 'diagnosis lupus harbour Porto Biscuit beach Lisbon tram';

/**
 * The bot's own `retrieve.scope` is the default, `global`: what Discord recalls must still stay private to
 * where it is asked.
 */
describe('Discord recall is private by default', () => {
  let h: DiscordHarness;
  let chat: FakeChat;
  before(async () => {
    chat = await startFakeChat('I remember.');
    h = await startDiscordHarness({
      channels: [GENERAL],
      guilds: [PORTO],
      dms: true,
      companion: companionAnswering(chat),
    });
    h.answerReplyEdits();
    h.answerChannelSends();
    await h.send('GUILD_CREATE', {
      ...guildPayload(),
      id: PORTO,
      name: 'Porto friends',
      roles: [everyoneRole(PORTO)],
      channels: [
        { id: PORTO_CHAT, type: 0, name: 'chat', guild_id: PORTO, position: 0, permission_overwrites: [] },
      ],
    });
    await h.send('MESSAGE_CREATE', messagePayload({ content: 'general: my dog Biscuit loves the beach' }));
    await h.send('CHANNEL_CREATE', { id: DM_CHANNEL, type: 1, recipients: [HELEN] });
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ guildId: null, content: 'dm: my diagnosis is lupus, tell no one' }),
    );
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({
        guildId: PORTO,
        channelId: PORTO_CHAT,
        author: SAM,
        content: 'porto: the harbour party is a surprise for Helen',
      }),
    );
    // What SillyTavern (or any client of the HTTP API) saved: no server, not a DM, shared everywhere.
    const saved = await h.service.post('/save', {
      bot: 'mythos',
      source: 'sillytavern',
      messages: [
        {
          speaker_kind: 'user',
          speaker_name: 'Helen',
          text: 'sillytavern: we rode the Lisbon tram',
          message_id: 'st-1',
        },
      ],
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    await h.flush();
    assert.equal((await h.recall(QUERY)).length, 4, 'all four are remembered; recall decides what is shown');
  });
  after(async () => {
    await h.close();
    await chat.close();
  });

  test('/memory recall in a server: that server and shared memories, never a DM or another server', async () => {
    const { edit } = await ask(
      h,
      command({ user: HELEN }, 'recall', [{ name: 'query', type: 3, value: QUERY }]),
    );
    const recalled = edit?.content ?? '';
    assert.match(recalled, /Biscuit/);
    assert.match(recalled, /Lisbon tram/, 'what SillyTavern saved is shared across interfaces');
    assert.doesNotMatch(recalled, /lupus/, 'a DM never comes back in a server');
    assert.doesNotMatch(recalled, /harbour/, "another server's talk never comes back here");
  });

  test('/memory recall in a DM: that DM and shared memories, not what servers said', async () => {
    const { edit } = await ask(
      h,
      command({ user: HELEN, guildId: null, channelId: DM_CHANNEL }, 'recall', [
        { name: 'query', type: 3, value: QUERY },
      ]),
    );
    const recalled = edit?.content ?? '';
    assert.match(recalled, /lupus/);
    assert.match(recalled, /Lisbon tram/);
    assert.doesNotMatch(recalled, /harbour|Biscuit/);
  });

  test('the companion, asked in a server, is given neither a DM nor another server', async () => {
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ content: `<@${BOT_USER.id}> ${QUERY}?`, mentions: [BOT_USER] }),
    );
    const system = chat.requests.at(-1)?.messages[0]?.content ?? '';
    // #general's own memory is already in the recent messages, so recall leaves it out of the block.
    assert.match(system, /\[Past chat memories\][\s\S]*Lisbon tram/);
    assert.doesNotMatch(system, /lupus/, 'a DM is never posted in a server');
    assert.doesNotMatch(system, /harbour/);
  });
});

const STAFF = '700000000000000001';
const SECRET_THREAD = '400000000000000011';
const ARCHIVED_THREAD = '400000000000000012';
const PRIVATE_THREAD = '400000000000000013';
/** Every word of every memory below. */
const WHO_QUERY = 'bonus plan raise picnic Belem audit diary';

/** Sam asks; #secret is for staff only; Helen owns the server (and so sees everything). */
describe('Discord recall leaves out channels its readers may not view', () => {
  let h: DiscordHarness;
  let chat: FakeChat;
  before(async () => {
    chat = await startFakeChat('I remember.');
    h = await startDiscordHarness(
      {
        channels: [GENERAL, OFFTOPIC, SECRET],
        companion: companionAnswering(chat),
      },
      {
        guild: {
          roles: [everyoneRole(GUILD), rolePayload(STAFF, 'staff', 0n, 1)],
          channels: [
            textChannel(GENERAL, 'general'),
            textChannel(OFFTOPIC, 'offtopic'),
            textChannel(SECRET, 'secret', {
              permission_overwrites: [
                { id: GUILD, type: 0, allow: '0', deny: String(VIEW_CHANNEL) },
                { id: STAFF, type: 0, allow: String(VIEW_CHANNEL), deny: '0' },
              ],
            }),
          ],
        },
      },
    );
    h.answerReplyEdits();
    h.answerChannelSends();
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ channelId: OFFTOPIC, content: 'offtopic: the picnic is at Belem' }),
    );
    // #secret, a thread under it, and one archived since (not cached, known from the recorder's state).
    await recordChannelWithThreads(
      h,
      SECRET,
      [SECRET_THREAD, ARCHIVED_THREAD],
      [
        'secret: the bonus plan is a raise for all',
        'thread: the audit starts Monday',
        'archived: my diary of the audit',
      ],
    );
    h.evictChannel(ARCHIVED_THREAD);
    await h.send('THREAD_CREATE', { ...threadPayload(PRIVATE_THREAD, GENERAL), type: 12 });
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ channelId: PRIVATE_THREAD, content: 'private: my raise is a secret diary entry' }),
    );
    await h.flush();
    assert.equal((await h.recall(WHO_QUERY)).length, 5, 'all five are remembered');
  });
  after(async () => {
    await h.close();
    await chat.close();
  });

  const recallAs = async (caller: Parameters<typeof command>[0]) => {
    const { edit } = await ask(h, command(caller, 'recall', [{ name: 'query', type: 3, value: WHO_QUERY }]));
    return edit?.content ?? '';
  };

  test('/memory recall in #general: what the asker may view, not a staff channel, its threads or a private thread', async () => {
    const recalled = await recallAs({ user: SAM });
    assert.match(recalled, /picnic is at Belem/, 'a channel the asker may view is recalled');
    assert.doesNotMatch(recalled, /bonus plan/, 'a channel hidden from the asker is not');
    assert.doesNotMatch(
      recalled,
      /audit starts/,
      "a thread of it is not, since its parent's rights are its own",
    );
    assert.doesNotMatch(recalled, /diary of the audit/, 'nor an archived thread of it, no longer cached');
    assert.doesNotMatch(recalled, /private: my raise/, 'nor a private thread the asker is not in');
  });

  test('/memory recall in #general leaves out what it cannot vouch for: an archived private thread, an unknown channel', async () => {
    const ARCHIVED_PRIVATE = '400000000000000014';
    await h.send('THREAD_CREATE', { ...threadPayload(ARCHIVED_PRIVATE, GENERAL), type: 12 });
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ channelId: ARCHIVED_PRIVATE, content: 'archived private: the raise diary picnic' }),
    );
    h.evictChannel(ARCHIVED_PRIVATE);
    // A thread brought in by an import (no parent known) and a channel deleted while the bot was away.
    for (const [channel, text] of [
      ['400000000000000015', 'imported: the bonus audit picnic'],
      ['400000000000000016', 'ghost: the hidden picnic at Belem'],
    ] as const) {
      const saved = await h.service.post('/save', {
        bot: 'mythos',
        source: 'discord',
        messages: [
          { speaker_kind: 'user', text, message_id: `m-${channel}`, channel_id: channel, guild_id: GUILD },
        ],
      });
      assert.equal(saved.status, 200);
    }
    await h.flush();
    const recalled = await recallAs({ user: SAM });
    assert.match(recalled, /picnic is at Belem/, 'a channel the asker may read still is');
    assert.doesNotMatch(recalled, /archived private/);
    assert.doesNotMatch(recalled, /imported: the bonus/);
    assert.doesNotMatch(recalled, /ghost: the hidden/);
  });

  test('/memory recall by staff: #secret and its threads too', async () => {
    const recalled = await recallAs({ user: SAM, roles: [STAFF] });
    assert.match(recalled, /picnic is at Belem/);
    assert.match(recalled, /bonus plan/);
    assert.match(recalled, /audit starts/);
    assert.match(recalled, /diary of the audit/);
  });

  test('the companion, asked by staff in #general, posts nothing from a channel @everyone cannot view', async () => {
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({
        author: SAM,
        roles: [STAFF],
        content: `<@${BOT_USER.id}> ${WHO_QUERY}?`,
        mentions: [BOT_USER],
      }),
    );
    const system = chat.requests.at(-1)?.messages[0]?.content ?? '';
    assert.match(system, /\[Past chat memories\][\s\S]*picnic is at Belem/);
    assert.doesNotMatch(system, /bonus plan|audit|private: my raise/);
  });

  test('the companion, asked by staff in #secret, recalls #secret there', async () => {
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({
        channelId: SECRET_THREAD,
        author: SAM,
        roles: [STAFF],
        content: `<@${BOT_USER.id}> ${WHO_QUERY}?`,
        mentions: [BOT_USER],
      }),
    );
    const system = chat.requests.at(-1)?.messages[0]?.content ?? '';
    // Asked in a thread of #secret: its readers may view #secret, so #secret's talk is theirs.
    assert.match(system, /bonus plan/);
    assert.match(system, /picnic is at Belem/);
    assert.doesNotMatch(system, /private: my raise/);
  });
});
