import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  BOT_USER,
  GENERAL,
  messagePayload,
  OFFTOPIC,
  SAM,
  startDiscordHarness,
} from '../test-support/discord-harness.js';
import { cardPng } from './test-support/card-png.js';
import { startFakeChat } from './test-support/fake-chat.js';

test('companion: mentioned, it answers with the card persona and recalled memories, split at 2,000, recorded as self', async () => {
  const reply = `${'Pixel is your grey cat, I remember. '.repeat(100).trim()}\n\nSee you soon.`; // ~3,700 characters
  const chat = await startFakeChat(reply);
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-companion-'));
  const card = join(dir, 'mythos.png');
  writeFileSync(
    card,
    cardPng({
      chara: {
        spec: 'chara_card_v2',
        data: { name: 'Mythos', description: '{{char}} keeps the old lighthouse.' },
      },
    }),
  );
  const h = await startDiscordHarness({
    channels: [GENERAL, OFFTOPIC],
    companion: {
      baseUrl: chat.url,
      model: 'test-model',
      card,
      replyChannels: [],
      contextMessages: 5,
      timeoutMs: 10_000,
    },
  });
  h.answerChannelSends();
  try {
    // Said in another channel (the bot's scope is global), so only recall can bring it in.
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ content: 'my cat Pixel is grey and loves boxes', channelId: OFFTOPIC }),
    );
    await h.flush();
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ content: 'unmentioned: nice weather today', channelId: OFFTOPIC }),
    );
    assert.equal(chat.requests.length, 0, 'no reply without a mention outside reply channels');

    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ content: `<@${BOT_USER.id}> what colour is my cat Pixel?`, mentions: [BOT_USER] }),
    );
    assert.equal(chat.requests.length, 1);
    const [sent] = chat.requests;
    assert.equal(sent?.model, 'test-model');
    assert.equal(sent?.stream, true);
    const system = sent?.messages[0]?.content ?? '';
    assert.match(system, /Mythos keeps the old lighthouse\./, "the card's persona");
    assert.match(
      system,
      /\[Past chat memories\][\s\S]*my cat Pixel is grey and loves boxes/,
      'the recalled block',
    );
    assert.equal(sent?.messages.at(-1)?.content, 'Helen: Mythos what colour is my cat Pixel?');

    assert.ok(h.fake.calls.some((c) => c.method === 'POST' && c.path === `/channels/${GENERAL}/typing`));
    const posted = h.fake.calls
      .filter((c) => c.method === 'POST' && c.path === `/channels/${GENERAL}/messages`)
      .map((c) => (c.body as { content: string }).content);
    assert.equal(posted.length, 2);
    assert.ok(posted.every((part) => part.length <= 2000));
    assert.equal(posted.join(' ').replace(/\s+/g, ' '), reply.replace(/\s+/g, ' '));

    await h.flush();
    const recalled = (await h.recall('Pixel is your grey cat See you soon')).join('\n');
    assert.match(recalled, /Mythos: Pixel is your grey cat, I remember\./);
    assert.match(recalled, /See you soon\./);
    assert.equal(
      recalled.match(/^Mythos: /gm)?.length,
      2,
      "each sent part is one of the companion's own messages",
    );
  } finally {
    await h.close();
    await chat.close();
  }
});

test('companion: after a restart (nothing cached) the recent messages come from the channel history', async () => {
  const chat = await startFakeChat('Yes, the ferry at nine.');
  const h = await startDiscordHarness({
    channels: [GENERAL],
    companion: {
      baseUrl: chat.url,
      model: 'test-model',
      systemPrompt: 'You are Mythos.',
      replyChannels: [],
      contextMessages: 3,
      timeoutMs: 10_000,
    },
  });
  h.answerChannelSends();
  // Said before the restart: Discord has them, discord.js's cache does not. Discord answers newest first.
  const older = [
    messagePayload({ content: 'shall we take the ferry tomorrow?', author: SAM }),
    messagePayload({ content: 'only if it leaves after eight' }),
  ].reverse();
  h.fake.respond((call) =>
    call.method === 'GET' && call.path === `/channels/${GENERAL}/messages` ? { body: older } : undefined,
  );
  try {
    const mention = (content: string) =>
      h.send(
        'MESSAGE_CREATE',
        messagePayload({ content: `<@${BOT_USER.id}> ${content}`, mentions: [BOT_USER] }),
      );
    await mention('which ferry did we pick?');
    const turns = chat.requests[0]?.messages.slice(1).map((m) => m.content);
    assert.deepEqual(turns, [
      'Sam: shall we take the ferry tomorrow?',
      'Helen: only if it leaves after eight',
      'Helen: Mythos which ferry did we pick?',
    ]);
    const reads = h.fake.calls.filter(
      (c) => c.method === 'GET' && c.path === `/channels/${GENERAL}/messages`,
    );
    assert.equal(reads.length, 1);
    assert.match(reads[0]?.query ?? '', /limit=3/);
    assert.match(reads[0]?.query ?? '', /before=\d+/);

    await mention('and when?');
    assert.equal(
      h.fake.calls.filter((c) => c.method === 'GET' && c.path === `/channels/${GENERAL}/messages`).length,
      1,
      'read once: from then on the cache holds the channel',
    );
  } finally {
    await h.close();
    await chat.close();
  }
});

test('companion: recall reads "yesterday" against the time of the message it answers', async () => {
  const chat = await startFakeChat('You told me about Pixel.');
  const h = await startDiscordHarness({
    channels: [GENERAL, OFFTOPIC],
    companion: {
      baseUrl: chat.url,
      model: 'test-model',
      systemPrompt: 'You are Mythos.',
      replyChannels: [],
      contextMessages: 1,
      timeoutMs: 10_000,
    },
  });
  h.answerChannelSends();
  try {
    await h.send('MESSAGE_CREATE', messagePayload({ content: 'my cat Pixel is grey', channelId: OFFTOPIC }));
    await h.flush();
    // Sent a day later by its own clock: its yesterday is today's talk (the service clock's is not).
    const tomorrow = String((BigInt(Date.now() + 86_400_000) - 1_420_070_400_000n) << 22n);
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({
        id: tomorrow,
        content: `<@${BOT_USER.id}> what did we talk about yesterday?`,
        mentions: [BOT_USER],
      }),
    );
    const system = chat.requests[0]?.messages[0]?.content ?? '';
    assert.match(system, /\[Past chat memories\][\s\S]*my cat Pixel is grey/);
  } finally {
    await h.close();
    await chat.close();
  }
});

test("companion: recallMaxChars is the prompt's budget for memories, whole ones only", async () => {
  for (const [recallMaxChars, kept] of [
    [undefined, true],
    [40, false],
  ] as const) {
    const chat = await startFakeChat('You told me about Pixel.');
    const h = await startDiscordHarness({
      channels: [GENERAL, OFFTOPIC],
      companion: {
        baseUrl: chat.url,
        model: 'test-model',
        systemPrompt: 'You are Mythos.',
        replyChannels: [],
        contextMessages: 1,
        timeoutMs: 10_000,
        ...(recallMaxChars === undefined ? {} : { recallMaxChars }),
      },
    });
    h.answerChannelSends();
    try {
      await h.send(
        'MESSAGE_CREATE',
        messagePayload({ content: 'my cat Pixel is grey', channelId: OFFTOPIC }),
      );
      await h.flush();
      await h.send(
        'MESSAGE_CREATE',
        messagePayload({ content: `<@${BOT_USER.id}> what colour is my cat Pixel?`, mentions: [BOT_USER] }),
      );
      const system = chat.requests[0]?.messages[0]?.content ?? '';
      // The one memory's block is longer than 40 characters: within that budget nothing fits, never a cut line.
      assert.equal(/\[Past chat memories\][\s\S]*my cat Pixel is grey/.test(system), kept, system);
      assert.equal(system.includes('Past chat memories'), kept);
    } finally {
      await h.close();
      await chat.close();
    }
  }
});
