import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  DM_CHANNEL,
  type DiscordHarness,
  GENERAL,
  GUILD,
  HELEN,
  type MessageOptions,
  messagePayload,
  newMessageId,
  OFFTOPIC,
  rolePayload,
  SAM,
  SECRET,
  startDiscordHarness,
  textChannel,
  VIEW_CHANNEL,
} from '../test-support/discord-harness.js';
import { ask, type Caller, command } from '../test-support/discord-interactions.js';

const MANAGE_MESSAGES = 1n << 13n;
const OTHER_GUILD = '100000000000000009';
const MODS = '400000000000000001';

/** Says something, recorded and served by Discord's REST like any real message. */
async function sayAndServe(h: DiscordHarness, options: MessageOptions): Promise<string> {
  const id = newMessageId();
  const payload = messagePayload({ ...options, id });
  const channelId = options.channelId ?? GENERAL;
  await h.send('MESSAGE_CREATE', payload);
  await h.flush();
  h.fake.respond((call) =>
    call.method === 'GET' && call.path === `/channels/${channelId}/messages/${id}`
      ? { body: payload }
      : undefined,
  );
  return id;
}

const forgetLink = (h: DiscordHarness, caller: Caller, link: string) =>
  ask(h, command(caller, 'forget', [{ name: 'link', type: 3, value: link }]));

describe('/memory forget <link> checks the message, not the ids typed into the link', () => {
  let h: DiscordHarness;
  before(async () => {
    h = await startDiscordHarness({ channels: [GENERAL] });
    h.fake.respond((call) =>
      call.method === 'PUT' && call.path.endsWith('/commands') ? { body: [] } : undefined,
    );
    h.answerReplyEdits();
  });
  after(() => h.close());

  const samSays = (content: string) => sayAndServe(h, { content, author: SAM });
  const forget = (caller: Caller, link: string) => forgetLink(h, caller, link);

  test("a DM link holding another person's message id forgets nothing", async () => {
    const id = await samSays('Sam: my bike lock code is 9911');
    const answer = await forget(
      { user: HELEN, guildId: null, channelId: DM_CHANNEL },
      `https://discord.com/channels/@me/${DM_CHANNEL}/${id}`,
    );
    assert.match(answer.callback?.data?.content ?? '', /cannot find that message/);
    assert.match((await h.recall('bike lock code')).join('\n'), /9911/);
  });

  test("a moderator of another server cannot forget this server's messages by naming their own server", async () => {
    const id = await samSays('Sam: my boat is called Wren');
    const answer = await forget(
      { user: HELEN, guildId: OTHER_GUILD, channelId: GENERAL, permissions: MANAGE_MESSAGES },
      `https://discord.com/channels/${OTHER_GUILD}/${GENERAL}/${id}`,
    );
    assert.match(answer.callback?.data?.content ?? '', /your own messages/);
    assert.match((await h.recall('boat Wren')).join('\n'), /Wren/);
  });

  test("a moderator of this server forgets anyone's message in it", async () => {
    const id = await samSays('Sam: my locker is number 42');
    const answer = await forget(
      { user: HELEN, permissions: MANAGE_MESSAGES },
      `https://discord.com/channels/${GUILD}/${GENERAL}/${id}`,
    );
    assert.match(answer.callback?.data?.content ?? '', /Forgotten: it will not be recalled again/);
    assert.doesNotMatch((await h.recall('locker number')).join('\n'), /locker is number 42/);
  });
});

describe('/memory forget <link> reads Manage Messages in the linked channel, not where it is typed', () => {
  let h: DiscordHarness;
  before(async () => {
    h = await startDiscordHarness(
      { channels: [GENERAL, OFFTOPIC, SECRET] },
      {
        guild: {
          // Mods may manage messages everywhere but #secret; Sam, no mod, may in #offtopic.
          roles: [
            rolePayload(GUILD, '@everyone', VIEW_CHANNEL, 0),
            rolePayload(MODS, 'mods', MANAGE_MESSAGES, 1),
          ],
          channels: [
            textChannel(GENERAL, 'general'),
            textChannel(OFFTOPIC, 'offtopic', {
              permission_overwrites: [{ id: SAM.id, type: 1, allow: String(MANAGE_MESSAGES), deny: '0' }],
            }),
            textChannel(SECRET, 'secret', {
              permission_overwrites: [{ id: MODS, type: 0, allow: '0', deny: String(MANAGE_MESSAGES) }],
            }),
          ],
        },
      },
    );
    h.answerReplyEdits();
  });
  after(() => h.close());

  test('a mod typing in #general cannot forget in #secret, where mods may not manage messages', async () => {
    const id = await sayAndServe(h, { channelId: SECRET, content: 'secret: my safe code is 3141' });
    const answer = await forgetLink(
      h,
      { user: SAM, roles: [MODS], permissions: MANAGE_MESSAGES },
      `https://discord.com/channels/${GUILD}/${SECRET}/${id}`,
    );
    assert.match(answer.callback?.data?.content ?? '', /your own messages/);
    assert.match((await h.recall('safe code')).join('\n'), /3141/);
  });

  test('someone typing in #general forgets in #offtopic, where they may manage messages', async () => {
    const id = await sayAndServe(h, {
      channelId: OFFTOPIC,
      content: 'offtopic: my spare key is under the pot',
    });
    const answer = await forgetLink(
      h,
      { user: SAM, permissions: 0n },
      `https://discord.com/channels/${GUILD}/${OFFTOPIC}/${id}`,
    );
    assert.match(answer.callback?.data?.content ?? '', /Forgotten: it will not be recalled again/);
    assert.doesNotMatch((await h.recall('spare key')).join('\n'), /under the pot/);
  });
});
