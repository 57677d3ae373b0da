import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  BOT_USER,
  type DiscordHarness,
  DM_CHANNEL,
  GENERAL,
  GUILD,
  HELEN,
  messagePayload,
  newMessageId,
  OFFTOPIC,
  recordChannelWithThreads,
  SAM,
  SECRET,
  startDiscordHarness,
  threadPayload,
} from './test-support/discord-harness.js';
import { ask, command, press } from './test-support/discord-interactions.js';

const edited = () => new Date().toISOString();

describe('the Discord recorder, a real discord.js client fed gateway packets', () => {
  let h: DiscordHarness;
  before(async () => {
    h = await startDiscordHarness(
      { channels: [GENERAL], denyChannels: [SECRET], otherBots: 'none', dms: false },
      { speakerAliases: { [SAM.id]: 'Samwise' } },
    );
  });
  after(() => h.close());

  test('identifies with the intents it needs, Message Content included', () => {
    // Guilds (1) | GuildMessages (512) | DirectMessages (4096) | MessageContent (32768)
    assert.equal(h.fake.identifiedIntents, 1 | 512 | 4096 | 32768);
  });

  test('records allowed channels with the speaker, mentions as names, and nothing else', async () => {
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({
        content: `<@${BOT_USER.id}> I adopted a grey cat named Pixel, ask <@${SAM.id}>`,
        nick: 'Hel',
        mentions: [BOT_USER, SAM],
      }),
    );
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ channelId: OFFTOPIC, content: 'offtopic: my bike is blue' }),
    );
    await h.send('MESSAGE_CREATE', messagePayload({ guildId: null, content: 'dm: my passport number' }));
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ content: 'a bot line about turnips', author: { id: '77', username: 'b', bot: true } }),
    );
    await h.send('MESSAGE_CREATE', messagePayload({ content: 'Helen pinned a message', type: 6 }));
    await h.flush();
    const texts = (await h.recall('grey cat Pixel bike passport turnips pinned')).join('\n');
    assert.match(texts, /Hel: Mythos I adopted a grey cat named Pixel, ask Samwise/);
    assert.doesNotMatch(texts, /bike|passport|turnips|pinned/);
  });

  test('threads inherit their parent; the deny-list wins', async () => {
    const allowedThread = '210000000000000001';
    const deniedThread = '210000000000000002';
    await h.send('THREAD_CREATE', threadPayload(allowedThread, GENERAL));
    await h.send('THREAD_CREATE', threadPayload(deniedThread, SECRET));
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ channelId: allowedThread, content: 'thread: my sister lives in Porto' }),
    );
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ channelId: deniedThread, content: 'secret thread: my salary is high' }),
    );
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ channelId: SECRET, content: 'secret: the surprise party' }),
    );
    await h.flush();
    const texts = (await h.recall('sister Porto salary surprise party')).join('\n');
    assert.match(texts, /my sister lives in Porto/);
    assert.doesNotMatch(texts, /salary|surprise/);
  });

  test('a real edit rebuilds the memory; an unfurl with unchanged text changes nothing', async () => {
    const id = newMessageId();
    const created = messagePayload({ id, content: 'my favourite colour is green' });
    await h.send('MESSAGE_CREATE', created);
    await h.flush();
    // An unfurl: same content, embeds added, never marked edited.
    await h.send('MESSAGE_UPDATE', { ...created, embeds: [{ type: 'link', url: 'https://example.com' }] });
    const statsBefore = (await h.service.post('/retrieve', { bot: 'mythos', query_text: 'favourite colour' }))
      .json;
    await h.send('MESSAGE_UPDATE', {
      ...created,
      content: 'my favourite colour is purple',
      edited_timestamp: edited(),
    });
    await h.flush();
    const texts = (await h.recall('favourite colour')).join('\n');
    assert.match(statsBefore.hits.map((hit: { text: string }) => hit.text).join('\n'), /green/);
    assert.match(texts, /my favourite colour is purple/);
    assert.doesNotMatch(texts, /green/);
  });

  test('re-delivered events after a reconnect change nothing', async () => {
    const payload = messagePayload({ content: 'I play the cello on Sundays' });
    await h.send('MESSAGE_CREATE', payload);
    await h.flush();
    const before = await h.recall('cello Sundays');
    await h.send('MESSAGE_CREATE', payload);
    await h.send('MESSAGE_CREATE', payload);
    await h.flush();
    const afterRedelivery = await h.recall('cello Sundays');
    assert.deepEqual(afterRedelivery, before);
    assert.equal(afterRedelivery.join('\n').match(/cello/g)?.length, 1);
  });

  test('a create re-delivered after an edit does not bring the old text back', async () => {
    const id = newMessageId();
    const created = messagePayload({ id, content: 'my train leaves at nine' });
    await h.send('MESSAGE_CREATE', created);
    await h.send('MESSAGE_UPDATE', {
      ...created,
      content: 'my train leaves at ten',
      edited_timestamp: edited(),
    });
    // After a restart the message is no longer cached, and discord.js emits the repeated create again.
    (
      h.discord.client.channels.cache.get(GENERAL) as unknown as { messages: { cache: Map<string, unknown> } }
    ).messages.cache.delete(id);
    await h.send('MESSAGE_CREATE', created);
    await h.flush();
    const texts = (await h.recall('train leaves')).join('\n');
    assert.match(texts, /my train leaves at ten/);
    assert.doesNotMatch(texts, /at nine/);
  });

  test('a delete forgets the message, also one from before a restart (not in the cache)', async () => {
    const id = newMessageId();
    await h.send('MESSAGE_CREATE', messagePayload({ id, content: 'my locker code is 4455' }));
    await h.flush();
    assert.match((await h.recall('locker code')).join('\n'), /4455/);
    h.discord.client.channels.cache.get(GENERAL)?.isTextBased() &&
      (
        h.discord.client.channels.cache.get(GENERAL) as { messages: { cache: Map<string, unknown> } }
      ).messages.cache.delete(id);
    await h.send('MESSAGE_DELETE', { id, channel_id: GENERAL, guild_id: GUILD });
    assert.doesNotMatch((await h.recall('locker code')).join('\n'), /4455/);
    // Re-sent by a client after the delete: it stays forgotten.
    await h.send('MESSAGE_CREATE', messagePayload({ id, content: 'my locker code is 4455' }));
    await h.flush();
    assert.doesNotMatch((await h.recall('locker code')).join('\n'), /4455/);
  });

  test('a bulk delete forgets every message in it', async () => {
    const ids = [newMessageId(), newMessageId()];
    await h.send('MESSAGE_CREATE', messagePayload({ id: ids[0], content: 'bulk one: the red kite' }));
    await h.send('MESSAGE_CREATE', messagePayload({ id: ids[1], content: 'bulk two: the blue heron' }));
    await h.flush();
    await h.send('MESSAGE_DELETE_BULK', { ids, channel_id: GENERAL, guild_id: GUILD });
    assert.doesNotMatch((await h.recall('red kite blue heron')).join('\n'), /kite|heron/);
  });

  test('a deleted thread forgets its messages', async () => {
    const thread = '210000000000000009';
    await h.send('THREAD_CREATE', threadPayload(thread, GENERAL));
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ channelId: thread, content: 'thread only: the lighthouse keeper' }),
    );
    await h.flush();
    assert.match((await h.recall('lighthouse keeper')).join('\n'), /lighthouse/);
    await h.send('THREAD_DELETE', { id: thread, guild_id: GUILD, parent_id: GENERAL, type: 11 });
    assert.doesNotMatch((await h.recall('lighthouse keeper')).join('\n'), /lighthouse/);
  });

  test('a PluralKit-style repost (delete, then the same text by webhook) is not a forget', async () => {
    const id = newMessageId();
    await h.send('MESSAGE_CREATE', messagePayload({ id, content: 'proxied: I grew up near the sea' }));
    // The proxy deletes the original and reposts at once: the two packets arrive back to back.
    await h.fake.dispatch('MESSAGE_DELETE', { id, channel_id: GENERAL, guild_id: GUILD });
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({
        content: 'proxied: I grew up near the sea',
        webhookId: '880000000000000001',
        author: { id: '880000000000000001', username: 'Luna', bot: true },
      }),
    );
    await h.flush();
    assert.equal((await h.recall('grew up near the sea')).join('\n').match(/near the sea/g)?.length, 1);
  });

  test('a PluralKit repost with its proxy tags stripped (prefix or suffix) is not a forget either', async () => {
    for (const [tagged, proxied] of [
      ['l: my first boat was called Heron', 'my first boat was called Heron'],
      ['my grandmother baked quince jam -l', 'my grandmother baked quince jam'],
    ] as const) {
      const id = newMessageId();
      await h.send('MESSAGE_CREATE', messagePayload({ id, content: tagged }));
      await h.fake.dispatch('MESSAGE_DELETE', { id, channel_id: GENERAL, guild_id: GUILD });
      await h.send(
        'MESSAGE_CREATE',
        messagePayload({
          content: proxied,
          webhookId: '880000000000000001',
          author: { id: '880000000000000001', username: 'Luna', bot: true },
        }),
      );
    }
    await h.flush();
    const texts = (await h.recall('first boat Heron grandmother quince jam')).join('\n');
    assert.equal(texts.match(/Helen: .*boat was called Heron/g)?.length, 1, texts);
    assert.equal(texts.match(/Helen: .*quince jam/g)?.length, 1, texts);
  });

  test('the companion itself is recorded as self', async () => {
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({
        content: 'I will remember the lighthouse postcard',
        author: { ...BOT_USER, bot: true },
      }),
    );
    await h.flush();
    assert.match(
      (await h.recall('lighthouse postcard')).join('\n'),
      /Mythos: I will remember the lighthouse postcard/,
    );
  });
});

describe('DMs, other bots and leaving a guild', () => {
  test('DMs with dms: true (marked as DMs); bots that mention this one with otherBots: mentions; purgeOnLeave forgets the guild', async () => {
    const h = await startDiscordHarness({ dms: true, otherBots: 'mentions', purgeOnLeave: true });
    try {
      await h.send('CHANNEL_CREATE', { id: DM_CHANNEL, type: 1, recipients: [HELEN] });
      await h.send(
        'MESSAGE_CREATE',
        messagePayload({ guildId: null, content: 'dm: my middle name is Rose' }),
      );
      const bot = { id: '770000000000000001', username: 'dicebot', bot: true };
      await h.send('MESSAGE_CREATE', messagePayload({ content: 'dice rolled a seven', author: bot }));
      await h.send(
        'MESSAGE_CREATE',
        messagePayload({
          content: `<@${BOT_USER.id}> dice rolled a twelve`,
          author: bot,
          mentions: [BOT_USER],
        }),
      );
      await h.flush();
      const dm = await h.service.post('/retrieve', { bot: 'mythos', query_text: 'middle name Rose' });
      const dmHit = dm.json.hits.find((hit: { text: string }) => /Rose/.test(hit.text));
      assert.equal(dmHit?.channelId, DM_CHANNEL);
      assert.equal(dmHit?.guildId, undefined);
      const dice = (await h.recall('dice rolled')).join('\n');
      assert.match(dice, /twelve/);
      assert.doesNotMatch(dice, /seven/);

      // An outage is not a removal: nothing is forgotten.
      await h.send('GUILD_DELETE', { id: GUILD, unavailable: true });
      assert.match((await h.recall('dice rolled')).join('\n'), /twelve/);
      await h.send('GUILD_CREATE', (await import('./test-support/discord-harness.js')).guildPayload());
      await h.send('GUILD_DELETE', { id: GUILD });
      assert.doesNotMatch((await h.recall('dice rolled')).join('\n'), /twelve/);
      assert.match((await h.recall('middle name Rose')).join('\n'), /Rose/, 'DMs are not part of the guild');
    } finally {
      await h.close();
    }
  });
});

describe('back-fill', () => {
  test('records an allowed channel’s recent history once, oldest first, within the configured count, by the same rules', async () => {
    const history = [
      messagePayload({ content: 'history: the old lighthouse was painted red' }),
      messagePayload({
        content: 'history: a bot says hi',
        author: { id: '770000000000000002', username: 'b', bot: true },
      }),
      messagePayload({ content: 'history: we met at the Alfama market' }),
      messagePayload({ content: 'history: too old to back-fill, about the tram' }),
    ];
    const reads: string[] = [];
    const h = await startDiscordHarness(
      { channels: [GENERAL], backfill: 3 },
      {
        prepare: (fake) =>
          fake.respond((call) => {
            if (call.method !== 'GET' || !call.path.startsWith(`/channels/${GENERAL}/messages`))
              return undefined;
            reads.push(`${call.path}?${call.query}`);
            return { body: history.slice(0, 3).reverse() }; // Discord answers newest first
          }),
      },
    );
    try {
      assert.deepEqual(
        reads,
        [`/channels/${GENERAL}/messages?limit=3`],
        'one page, only for the allowed channel',
      );
      await h.flush();
      const texts = (await h.recall('lighthouse painted red Alfama market bot tram')).join('\n');
      assert.match(
        texts,
        /Hel|Helen: history: the old lighthouse was painted red\nHelen: history: we met at the Alfama market/,
      );
      assert.doesNotMatch(texts, /a bot says hi|tram/);
      assert.ok(h.discord.state.hasBackfilled(GENERAL));
      assert.ok(!h.discord.state.hasBackfilled(OFFTOPIC));
    } finally {
      await h.close();
    }
  });
});

describe('back-fill and opt-outs, and channels allowed later', () => {
  const ANA = { id: '500000000000000003', username: 'ana', global_name: 'Ana' };
  const MANAGE_GUILD = 1n << 5n;

  test('/memory channel allow back-fills the channel once, without the messages of people who opted out (before or while it is read)', async () => {
    const offtopicHistory = [
      messagePayload({ channelId: OFFTOPIC, content: 'offtopic history: Helen keeps bees on the roof' }),
      messagePayload({
        channelId: OFFTOPIC,
        content: 'offtopic history: Sam hides a key under the mat',
        author: SAM,
      }),
      messagePayload({
        channelId: OFFTOPIC,
        content: 'offtopic history: Ana takes the 7:40 train',
        author: ANA,
      }),
    ];
    const reads: string[] = [];
    let h: DiscordHarness | undefined;
    h = await startDiscordHarness(
      { channels: [GENERAL], backfill: 50 },
      {
        prepare: (fake) =>
          fake.respond((call) => {
            const channel = /^\/channels\/(\d+)\/messages$/.exec(call.path)?.[1];
            if (call.method !== 'GET' || channel === undefined) return undefined;
            reads.push(channel);
            if (channel !== OFFTOPIC) return { body: [] };
            // Ana opts out while the history is being read: her messages are not recorded either.
            // In force at once (the journal write resolves later).
            void h?.discord.state.setOptedOut(ANA.id, true, Date.now());
            return { body: [...offtopicHistory].reverse() };
          }),
      },
    );
    try {
      assert.deepEqual(reads, [GENERAL], 'first sight of the allowed channel at start-up');
      h.answerReplyEdits();
      const optOut = await ask(h, command({ user: SAM }, 'opt-out'));
      assert.match(optOut.callback?.data?.content ?? '', /no longer records/);

      const allow = [{ name: 'channel', type: 7, value: OFFTOPIC }];
      const allowed = await ask(
        h,
        command({ user: HELEN, permissions: MANAGE_GUILD }, 'channel allow', allow),
      );
      assert.match(
        allowed.callback?.data?.content ?? '',
        /Up to its last 50 messages are being recorded too/,
      );
      await h.discord.idle();
      await h.flush();
      const texts = (await h.recall('bees roof key mat train')).join('\n');
      assert.match(texts, /Helen: offtopic history: Helen keeps bees on the roof/);
      assert.doesNotMatch(texts, /key under the mat|7:40 train/);
      assert.ok(h.discord.state.hasBackfilled(OFFTOPIC));

      // Allowed again (or denied and allowed): never read twice.
      const again = await ask(h, command({ user: HELEN, permissions: MANAGE_GUILD }, 'channel allow', allow));
      assert.doesNotMatch(again.callback?.data?.content ?? '', /being recorded too/);
      await h.discord.idle();
      assert.deepEqual(reads, [GENERAL, OFFTOPIC]);
    } finally {
      await h.close();
    }
  });

  test('what forget-me and forget-channel forgot is not brought back by a back-fill or a re-delivered event', async () => {
    // Written before the forgets, read by a back-fill after them.
    const offtopicHistory = [
      messagePayload({ channelId: OFFTOPIC, content: 'old offtopic: Helen hides spare keys in the shed' }),
      messagePayload({
        channelId: OFFTOPIC,
        content: 'old offtopic: Sam brews cider in autumn',
        author: SAM,
      }),
    ];
    const oldGeneral = messagePayload({ content: 'old general: Sam sold his old van', author: SAM });
    const h = await startDiscordHarness(
      { channels: [GENERAL], backfill: 50 },
      {
        prepare: (fake) =>
          fake.respond((call) =>
            call.method === 'GET' && call.path === `/channels/${OFFTOPIC}/messages`
              ? { body: [...offtopicHistory].reverse() }
              : call.method === 'GET' && /^\/channels\/\d+\/messages$/.test(call.path)
                ? { body: [] }
                : undefined,
          ),
      },
    );
    try {
      h.answerReplyEdits();
      await h.send('MESSAGE_CREATE', messagePayload({ content: 'general: Helen runs on Tuesdays' }));
      await h.send('MESSAGE_CREATE', oldGeneral);
      const forgetMe = await ask(h, command({ user: HELEN }, 'forget-me'));
      const confirm = forgetMe.callback?.data?.components?.[0]?.components[0];
      await ask(h, press({ user: HELEN }, confirm!.custom_id));
      const forgetChannel = await ask(
        h,
        command({ user: HELEN, permissions: MANAGE_GUILD }, 'forget-channel'),
      );
      const confirmChannel = forgetChannel.callback?.data?.components?.[0]?.components[0];
      await ask(h, press({ user: HELEN }, confirmChannel!.custom_id));

      await ask(
        h,
        command({ user: HELEN, permissions: MANAGE_GUILD }, 'channel allow', [
          { name: 'channel', type: 7, value: OFFTOPIC },
        ]),
      );
      // After a restart the old #general message is re-delivered.
      (
        h.discord.client.channels.cache.get(GENERAL) as unknown as {
          messages: { cache: Map<string, unknown> };
        }
      ).messages.cache.delete(String(oldGeneral.id));
      await h.send('MESSAGE_CREATE', oldGeneral);
      await h.send('MESSAGE_CREATE', messagePayload({ content: 'general: Helen now swims on Fridays' }));
      await h.discord.idle();
      await h.flush();
      const texts = (await h.recall('Helen keys shed Sam cider van swims runs')).join('\n');
      assert.doesNotMatch(texts, /spare keys|old van|runs on Tuesdays/);
      assert.match(
        texts,
        /Sam: old offtopic: Sam brews cider in autumn/,
        'other people and other channels stay',
      );
      assert.match(
        texts,
        /Helen now swims on Fridays/,
        'forget-me is not an opt-out: what comes after is recorded',
      );
    } finally {
      await h.close();
    }
  });

  test('a guild of several allowed channels is read one channel after another, never in parallel', async () => {
    const pages: string[] = [];
    const page = (channelId: string, count: number) =>
      Array.from({ length: count }, (_, i) =>
        messagePayload({ channelId, content: `history ${channelId} number ${i}` }),
      );
    const h = await startDiscordHarness(
      { guilds: [GUILD], channels: [], denyChannels: [SECRET], backfill: 150 },
      {
        prepare: (fake) =>
          fake.respond((call) => {
            const channel = /^\/channels\/(\d+)\/messages$/.exec(call.path)?.[1];
            if (call.method !== 'GET' || channel === undefined) return undefined;
            const before = new URLSearchParams(call.query).get('before');
            pages.push(`${channel}${before === null ? ' first page' : ' second page'}`);
            return { body: before === null ? page(channel, 100) : page(channel, 20) };
          }),
      },
    );
    try {
      await h.discord.idle();
      assert.deepEqual(pages, [
        `${GENERAL} first page`,
        `${GENERAL} second page`,
        `${OFFTOPIC} first page`,
        `${OFFTOPIC} second page`,
      ]);
    } finally {
      await h.close();
    }
  });
});

describe('every delete path forgets, whether or not discord.js has the channel cached', () => {
  let h: DiscordHarness;
  before(async () => {
    h = await startDiscordHarness({ channels: [GENERAL, OFFTOPIC] }, { proxyGraceMs: 300 });
  });
  after(() => h.close());

  const forgetLog = async () =>
    (await fetch(`${h.service.url}/admin/forget-log?bot=mythos`).then((r) => r.json())) as {
      entries: { selector: Record<string, unknown> }[];
    };

  test('a message deleted in a channel denied since it was recorded is forgotten', async () => {
    const id = newMessageId();
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ id, channelId: OFFTOPIC, content: 'offtopic: my flat is on floor nine' }),
    );
    await h.flush();
    await h.discord.state.setChannelRule(OFFTOPIC, 'deny');
    await h.send('MESSAGE_DELETE', { id, channel_id: OFFTOPIC, guild_id: GUILD });
    assert.doesNotMatch((await h.recall('flat floor nine')).join('\n'), /floor nine/);
  });

  test('deletes in a thread discord.js has not cached (single and bulk) forget, by the thread recorded before', async () => {
    const thread = '210000000000000021';
    const [one, two, three] = [newMessageId(), newMessageId(), newMessageId()];
    await h.send('THREAD_CREATE', threadPayload(thread, GENERAL));
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ id: one, channelId: thread, content: 'archived: the walnut tree' }),
    );
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ id: two, channelId: thread, content: 'archived: the copper kettle' }),
    );
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ id: three, channelId: thread, content: 'archived: the linen map' }),
    );
    await h.flush();
    h.evictChannel(thread);
    await h.send('MESSAGE_DELETE', { id: one, channel_id: thread, guild_id: GUILD });
    await h.send('MESSAGE_DELETE_BULK', { ids: [two, three], channel_id: thread, guild_id: GUILD });
    assert.doesNotMatch(
      (await h.recall('walnut tree copper kettle linen map')).join('\n'),
      /walnut|kettle|linen/,
    );
  });

  test('a thread deleted while not cached is forgotten', async () => {
    const thread = '210000000000000022';
    await h.send('THREAD_CREATE', threadPayload(thread, GENERAL));
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ channelId: thread, content: 'old thread: the brass telescope' }),
    );
    await h.flush();
    h.evictChannel(thread);
    await h.send('THREAD_DELETE', { id: thread, guild_id: GUILD, parent_id: GENERAL, type: 11 });
    assert.doesNotMatch((await h.recall('brass telescope')).join('\n'), /telescope/);
  });

  test('a deleted channel forgets its messages and its threads, the archived ones too', async () => {
    const [cached, archived] = ['210000000000000023', '210000000000000024'];
    await h.discord.state.setChannelRule(OFFTOPIC, 'allow');
    await recordChannelWithThreads(
      h,
      OFFTOPIC,
      [cached, archived],
      ['channel: the paper lanterns', 'thread: the paper cranes', 'archived thread: the paper boats'],
    );
    assert.equal((await h.recall('paper lanterns cranes boats')).length, 3);
    h.evictChannel(archived);
    await h.send('CHANNEL_DELETE', {
      id: OFFTOPIC,
      type: 0,
      guild_id: GUILD,
      name: 'offtopic',
      position: 0,
      permission_overwrites: [],
    });
    assert.doesNotMatch((await h.recall('paper lanterns cranes boats')).join('\n'), /paper/);
  });

  test('a proxy that reposts first and deletes after is not a forget either', async () => {
    const id = newMessageId();
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ id, content: 'proxied first: my cat sleeps in the sink' }),
    );
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({
        content: 'proxied first: my cat sleeps in the sink',
        webhookId: '880000000000000002',
        author: { id: '880000000000000002', username: 'Luna', bot: true },
      }),
    );
    await h.send('MESSAGE_DELETE', { id, channel_id: GENERAL, guild_id: GUILD });
    await h.flush();
    assert.equal((await h.recall('cat sleeps sink')).join('\n').match(/sleeps in the sink/g)?.length, 1);
  });

  test('deletes where nothing was recorded write no forget at all', async () => {
    const before = (await forgetLog()).entries.length;
    await h.send('MESSAGE_DELETE', { id: newMessageId(), channel_id: SECRET, guild_id: GUILD });
    await h.send('MESSAGE_DELETE_BULK', {
      ids: [newMessageId(), newMessageId()],
      channel_id: SECRET,
      guild_id: GUILD,
    });
    await h.send('THREAD_DELETE', { id: '210000000000000029', guild_id: GUILD, parent_id: SECRET, type: 11 });
    assert.equal((await forgetLog()).entries.length, before);
  });
});
