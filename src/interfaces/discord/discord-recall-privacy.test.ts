import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startFakeChat, type FakeChat } from './companion/test-support/fake-chat.js';
import {
  BOT_USER,
  type DiscordHarness,
  DM_CHANNEL,
  GENERAL,
  guildPayload,
  HELEN,
  messagePayload,
  SAM,
  startDiscordHarness,
} from './test-support/discord-harness.js';
import { ask, command } from './test-support/discord-interactions.js';

const PORTO = '100000000000000009';
const PORTO_CHAT = '200000000000000009';

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
      companion: {
        baseUrl: chat.url,
        model: 'test-model',
        systemPrompt: 'You are Mythos.',
        replyChannels: [],
        contextMessages: 5,
        timeoutMs: 10_000,
      },
    });
    h.answerReplyEdits();
    h.answerChannelSends();
    await h.send('GUILD_CREATE', {
      ...guildPayload(),
      id: PORTO,
      name: 'Porto friends',
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
