import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  DM_CHANNEL,
  type DiscordHarness,
  GENERAL,
  GUILD,
  HELEN,
  messagePayload,
  newMessageId,
  SAM,
  startDiscordHarness,
} from '../test-support/discord-harness.js';
import { ask, command } from '../test-support/discord-interactions.js';

const MANAGE_MESSAGES = 1n << 13n;
const OTHER_GUILD = '100000000000000009';

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

  /** Sam says something in #general, recorded and served by Discord's REST like any real message. */
  const samSays = async (content: string) => {
    const id = newMessageId();
    const payload = messagePayload({ id, content, author: SAM });
    await h.send('MESSAGE_CREATE', payload);
    await h.flush();
    h.fake.respond((call) =>
      call.method === 'GET' && call.path === `/channels/${GENERAL}/messages/${id}`
        ? { body: payload }
        : undefined,
    );
    return id;
  };
  const forget = (caller: Parameters<typeof command>[0], link: string) =>
    ask(h, command(caller, 'forget', [{ name: 'link', type: 3, value: link }]));

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
