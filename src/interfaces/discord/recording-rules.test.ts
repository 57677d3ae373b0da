import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { MessageFacts } from './message-facts.js';
import { decideRecording, isPlaceRecorded, type RecordingRules } from './recording-rules.js';

const rules = (overrides: Partial<RecordingRules> = {}): RecordingRules => ({
  guilds: new Set(),
  channels: new Set(['c-allowed']),
  denyChannels: new Set(['c-denied']),
  dms: false,
  otherBots: 'none',
  selfUserId: 'u-self',
  ownUserId: 'u-self',
  ...overrides,
});

const message = (overrides: Partial<MessageFacts> = {}): MessageFacts => ({
  id: 'm1',
  channelId: 'c-allowed',
  guildId: 'g1',
  isDm: false,
  authorId: 'u-helen',
  authorName: 'Helen',
  authorIsBot: false,
  system: false,
  content: 'I moved to Lisbon',
  createdAt: 1_700_000_000_000,
  editedAt: null,
  mentionedUsers: new Map(),
  mentionedChannels: new Map(),
  mentionedRoles: new Map(),
  ...overrides,
});

const never = (_userId: string): boolean => false;
const recorded = (m: MessageFacts, r = rules(), optedOut = never) => decideRecording(m, r, optedOut).record;

describe('places', () => {
  test('only allow-listed channels, or every channel of an allow-listed guild', () => {
    assert.equal(recorded(message()), true);
    assert.equal(recorded(message({ channelId: 'c-other' })), false);
    assert.equal(recorded(message({ channelId: 'c-other' }), rules({ guilds: new Set(['g1']) })), true);
    assert.equal(
      recorded(message({ channelId: 'c-other', guildId: 'g2' }), rules({ guilds: new Set(['g1']) })),
      false,
    );
  });

  test('a thread inherits its parent, and the deny-list wins over every allow', () => {
    assert.equal(recorded(message({ channelId: 't1', parentChannelId: 'c-allowed' })), true);
    assert.equal(recorded(message({ channelId: 't1', parentChannelId: 'c-other' })), false);
    const wholeGuild = rules({ guilds: new Set(['g1']), channels: new Set(['c-denied']) });
    assert.equal(recorded(message({ channelId: 'c-denied' }), wholeGuild), false);
    assert.equal(recorded(message({ channelId: 't2', parentChannelId: 'c-denied' }), wholeGuild), false);
  });

  test('direct messages only with dms: true', () => {
    const dm = message({ channelId: 'dm-1', guildId: undefined, isDm: true });
    assert.deepEqual(decideRecording(dm, rules(), never), {
      record: false,
      reason: 'direct messages are not recorded',
    });
    assert.equal(recorded(dm, rules({ dms: true })), true);
    assert.equal(isPlaceRecorded(dm, rules({ dms: true, denyChannels: new Set() })), true);
  });
});

describe('authors', () => {
  test('system notices are never recorded, nor messages without text', () => {
    assert.equal(recorded(message({ system: true }), rules({ otherBots: 'all' })), false);
    assert.equal(recorded(message({ content: '  ' })), false);
  });

  test('the companion is recorded as self even though it is a bot', () => {
    assert.deepEqual(decideRecording(message({ authorId: 'u-self', authorIsBot: true }), rules(), never), {
      record: true,
      asSelf: true,
    });
    // Recording for a companion that replies through another framework: that bot is self, this one is not.
    const other = rules({ selfUserId: 'u-companion' });
    assert.deepEqual(decideRecording(message({ authorId: 'u-companion', authorIsBot: true }), other, never), {
      record: true,
      asSelf: true,
    });
  });

  test('other bots and webhooks: none by default, or only when they mention this bot, or all', () => {
    const bot = message({ authorId: 'u-bot', authorIsBot: true });
    const webhook = message({ authorId: 'w1', webhookId: 'w1' });
    const mentioning = message({
      authorId: 'u-bot',
      authorIsBot: true,
      mentionedUsers: new Map([['u-self', 'Mythos']]),
    });
    assert.equal(recorded(bot), false);
    assert.equal(recorded(webhook), false);
    assert.equal(recorded(bot, rules({ otherBots: 'mentions' })), false);
    assert.equal(recorded(mentioning, rules({ otherBots: 'mentions' })), true);
    assert.equal(recorded(webhook, rules({ otherBots: 'all' })), true);
  });

  test('recording for a companion another framework runs: a bot that mentions the companion counts too', () => {
    const mentionsCompanion = message({
      authorId: 'u-bot',
      authorIsBot: true,
      mentionedUsers: new Map([['u-companion', 'Mythos']]),
    });
    const forCompanion = rules({ otherBots: 'mentions', selfUserId: 'u-companion' });
    assert.equal(recorded(mentionsCompanion, forCompanion), true);
    assert.equal(recorded(message({ authorId: 'u-bot', authorIsBot: true }), forCompanion), false);
  });

  test('a person who opted out is not recorded; everyone else still is', () => {
    const optedOut = (id: string) => id === 'u-helen';
    assert.deepEqual(decideRecording(message(), rules(), optedOut), {
      record: false,
      reason: 'author opted out',
    });
    assert.equal(recorded(message({ authorId: 'u-sam' }), rules(), optedOut), true);
  });
});
