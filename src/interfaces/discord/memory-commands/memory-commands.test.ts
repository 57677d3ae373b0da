import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  BOT_USER,
  type DiscordHarness,
  GENERAL,
  GUILD,
  HELEN,
  messagePayload,
  newMessageId,
  OFFTOPIC,
  recordChannelWithThreads,
  SAM,
  startDiscordHarness,
  threadPayload,
} from '../test-support/discord-harness.js';
import { ask, command, press } from '../test-support/discord-interactions.js';

const MANAGE_GUILD = 1n << 5n;
const EPHEMERAL = 64;

describe('/memory slash commands', () => {
  let h: DiscordHarness;
  before(async () => {
    h = await startDiscordHarness({ channels: [GENERAL] });
    h.fake.respond((call) =>
      call.method === 'PUT' && call.path.endsWith('/commands') ? { body: [] } : undefined,
    );
    h.answerReplyEdits();
    await h.send('MESSAGE_CREATE', messagePayload({ content: 'Helen: my dog Biscuit loves the beach' }));
    await h.send('MESSAGE_CREATE', messagePayload({ content: 'Helen: I work night shifts at the hospital' }));
    await h.send('MESSAGE_CREATE', messagePayload({ content: 'Sam: I collect vinyl records', author: SAM }));
    await h.flush();
  });
  after(() => h.close());

  test('registers /memory in the guild the bot is in', () => {
    const put = h.fake.calls.find(
      (c) => c.method === 'PUT' && c.path === `/applications/${BOT_USER.id}/guilds/${GUILD}/commands`,
    );
    const names = (put?.body as { name: string; options: { name: string }[] }[] | undefined)?.[0];
    assert.equal(names?.name, 'memory');
    assert.deepEqual(
      names?.options.map((o) => o.name),
      ['recall', 'forget-me', 'forget', 'opt-out', 'opt-in', 'stats', 'link', 'channel', 'forget-channel'],
    );
  });

  test('recall answers only the caller, with what is remembered here', async () => {
    const asked = command({ user: SAM }, 'recall', [{ name: 'query', type: 3, value: 'dog Biscuit beach' }]);
    const { callback, edit } = await ask(h, asked);
    assert.equal(callback?.type, 5, 'deferred: embedding a query can take longer than Discord waits');
    assert.equal(callback?.data?.flags, EPHEMERAL);
    assert.match(edit?.content ?? '', /Biscuit loves the beach/);
  });

  test('recall reads "yesterday" against the time the command was sent', async () => {
    // Sent a day after the messages were: its yesterday is their day (the service clock's is not).
    const tomorrow = (BigInt(Date.now() + 86_400_000) - 1_420_070_400_000n) << 22n;
    const asked = {
      ...command({ user: SAM }, 'recall', [
        { name: 'query', type: 3, value: 'what did we talk about yesterday?' },
      ]),
      id: String(tomorrow),
    };
    const { edit } = await ask(h, asked);
    assert.match(edit?.content ?? '', /Biscuit loves the beach/);
  });

  test('opt-out stops recording the caller (and only them); opt-in resumes it', async () => {
    const out = await ask(h, command({ user: SAM }, 'opt-out'));
    assert.equal(out.callback?.data?.flags, EPHEMERAL);
    assert.match(out.callback?.data?.content ?? '', /no longer records/);
    await h.send('MESSAGE_CREATE', messagePayload({ content: 'Sam: my PIN is 0000', author: SAM }));
    await h.send('MESSAGE_CREATE', messagePayload({ content: 'Helen: my PIN is 1234' }));
    await h.flush();
    const pins = (await h.recall('PIN')).join('\n');
    assert.match(pins, /1234/);
    assert.doesNotMatch(pins, /0000/);
    assert.match((await h.recall('vinyl records')).join('\n'), /vinyl/, 'what Sam wrote before stays');
    await ask(h, command({ user: SAM }, 'opt-in'));
    await h.send('MESSAGE_CREATE', messagePayload({ content: 'Sam: my boat is called Wren', author: SAM }));
    await h.flush();
    assert.match((await h.recall('boat Wren')).join('\n'), /Wren/);
  });

  test('forget-me states the count, and forgets only after the caller confirms', async () => {
    const asked = await ask(h, command({ user: HELEN }, 'forget-me'));
    assert.equal(asked.callback?.data?.flags, EPHEMERAL);
    assert.match(asked.callback?.data?.content ?? '', /remembers 3 messages of yours/);
    const [confirm, cancel] = asked.callback?.data?.components?.[0]?.components ?? [];
    assert.equal(confirm?.label, 'Forget 3 messages');
    assert.match(
      (await h.recall('dog Biscuit')).join('\n'),
      /Biscuit/,
      'nothing forgotten before confirming',
    );

    const stranger = await ask(h, press({ user: SAM }, confirm!.custom_id));
    assert.match(stranger.callback?.data?.content ?? '', /Only the person who asked/);
    assert.match((await h.recall('dog Biscuit')).join('\n'), /Biscuit/);

    const cancelled = await ask(h, press({ user: HELEN }, cancel!.custom_id));
    assert.equal(cancelled.callback?.type, 7);
    assert.match(cancelled.callback?.data?.content ?? '', /nothing was forgotten/);

    const confirmed = await ask(h, press({ user: HELEN }, confirm!.custom_id));
    assert.match(confirmed.callback?.data?.content ?? '', /Forgotten: 3 messages/);
    const left = (await h.recall('dog Biscuit night shifts PIN vinyl')).join('\n');
    assert.doesNotMatch(left, /Biscuit|night shifts|1234/);
    assert.match(left, /vinyl/, "Sam's memories stay");
  });

  test('forget <link> forgets your own message; someone else’s needs Manage Messages', async () => {
    const id = newMessageId();
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ id, content: 'Sam: my bike lock code is 9911', author: SAM }),
    );
    await h.flush();
    const link = `https://discord.com/channels/${GUILD}/${GENERAL}/${id}`;
    h.fake.respond((call) =>
      call.method === 'GET' && call.path === `/channels/${GENERAL}/messages/${id}`
        ? { body: messagePayload({ id, content: 'Sam: my bike lock code is 9911', author: SAM }) }
        : undefined,
    );
    const refused = await ask(
      h,
      command({ user: HELEN }, 'forget', [{ name: 'link', type: 3, value: link }]),
    );
    assert.match(refused.callback?.data?.content ?? '', /your own messages/);
    assert.match((await h.recall('bike lock code')).join('\n'), /9911/);
    const bad = await ask(
      h,
      command({ user: SAM }, 'forget', [{ name: 'link', type: 3, value: 'yesterday' }]),
    );
    assert.match(bad.callback?.data?.content ?? '', /not a message link/);
    const done = await ask(h, command({ user: SAM }, 'forget', [{ name: 'link', type: 3, value: link }]));
    assert.match(done.callback?.data?.content ?? '', /Forgotten/);
    assert.doesNotMatch((await h.recall('bike lock code')).join('\n'), /9911/);
  });

  test('channel allow|deny and forget-channel need Manage Server', async () => {
    const channelOption = [{ name: 'channel', type: 7, value: OFFTOPIC }];
    const refused = await ask(h, command({ user: SAM }, 'channel allow', channelOption));
    assert.match(refused.callback?.data?.content ?? '', /Manage Server/);
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ channelId: OFFTOPIC, content: 'offtopic: the tide tables' }),
    );

    const allowed = await ask(
      h,
      command({ user: HELEN, permissions: MANAGE_GUILD }, 'channel allow', channelOption),
    );
    assert.equal(allowed.callback?.data?.flags, EPHEMERAL);
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ channelId: OFFTOPIC, content: 'offtopic: the harbour ferry times' }),
    );
    await h.flush();
    const texts = (await h.recall('tide tables harbour ferry')).join('\n');
    assert.match(texts, /ferry/);
    assert.doesNotMatch(texts, /tide tables/, 'only from the moment it is allowed');

    const forget = await ask(
      h,
      command({ user: HELEN, permissions: MANAGE_GUILD, channelId: OFFTOPIC }, 'forget-channel'),
    );
    assert.match(forget.callback?.data?.content ?? '', /remembers 1 message from/);
    const confirm = forget.callback?.data?.components?.[0]?.components[0];
    await ask(h, press({ user: HELEN, channelId: OFFTOPIC }, confirm!.custom_id));
    assert.doesNotMatch((await h.recall('harbour ferry')).join('\n'), /ferry/);

    await ask(
      h,
      command({ user: HELEN, permissions: MANAGE_GUILD }, 'channel deny', [
        { name: 'channel', type: 7, value: GENERAL },
      ]),
    );
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ content: 'general: the lighthouse is closed', author: SAM }),
    );
    await h.flush();
    assert.doesNotMatch((await h.recall('lighthouse closed')).join('\n'), /lighthouse/);
  });

  test('forget-channel counts and forgets its threads too, cached or not, and they stay forgotten', async () => {
    const [cached, archived, unseen] = ['210000000000000031', '210000000000000032', '210000000000000033'];
    await recordChannelWithThreads(
      h,
      OFFTOPIC,
      [cached, archived],
      ['offtopic: the blue kite', 'thread: the red kite', 'archived thread: the green kite'],
    );
    assert.equal((await h.recall('blue red green kite')).join('\n').match(/kite/g)?.length, 3);
    h.evictChannel(archived);
    const writtenBefore = newMessageId();

    const forget = await ask(
      h,
      command({ user: HELEN, permissions: MANAGE_GUILD, channelId: OFFTOPIC }, 'forget-channel'),
    );
    assert.match(forget.callback?.data?.content ?? '', /remembers 3 messages from <#\d+> and its threads/);
    const confirm = forget.callback?.data?.components?.[0]?.components[0];
    const confirmed = await ask(h, press({ user: HELEN, channelId: OFFTOPIC }, confirm!.custom_id));
    assert.match(confirmed.callback?.data?.content ?? '', /Forgotten: 3 messages/);
    assert.doesNotMatch((await h.recall('blue red green kite')).join('\n'), /kite/);

    // A message of a thread under it, written before the forget and delivered after (a re-delivery).
    await h.send('THREAD_CREATE', threadPayload(unseen, OFFTOPIC));
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ id: writtenBefore, channelId: unseen, content: 'late thread: the yellow kite' }),
    );
    await h.flush();
    assert.doesNotMatch((await h.recall('yellow kite')).join('\n'), /kite/);
  });

  test('an unknown command answers only the caller too', async () => {
    const unknown = await ask(h, command({ user: SAM }, 'teleport'));
    assert.equal(unknown.callback?.data?.flags, EPHEMERAL);
    assert.match(unknown.callback?.data?.content ?? '', /Unknown \/memory command/);
  });

  test('stats answers only the caller', async () => {
    const { callback } = await ask(h, command({ user: SAM }, 'stats'));
    assert.equal(callback?.data?.flags, EPHEMERAL);
    assert.match(callback?.data?.content ?? '', /remembers \d+ messages? from Discord, \d+ of them yours/);
  });

  // Last: every answer the suite above received.
  test('no answer of any command or button went to anyone but the caller, nor into a channel', () => {
    const answers = h.fake.calls.filter((call) => /^\/interactions\/\d+\/[^/]+\/callback$/.test(call.path));
    assert.ok(answers.length >= 15, `only ${answers.length} answers`);
    for (const answer of answers) {
      const { type, data } = answer.body as { type: number; data?: { flags?: number } };
      // 7 updates the ephemeral message its button is on; a new answer (4) or a deferred one (5) must be ephemeral.
      if (type === 7) continue;
      assert.equal((data?.flags ?? 0) & EPHEMERAL, EPHEMERAL, JSON.stringify(answer.body));
    }
    assert.deepEqual(
      h.fake.calls.filter((call) => call.method === 'POST' && /^\/channels\/\d+\/messages$/.test(call.path)),
      [],
    );
  });
});
