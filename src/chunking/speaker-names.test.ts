import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { MemoryMessage, SpeakerConfig } from './memory-message.js';
import { resolveSpeaker, rewriteMentions } from './speaker-names.js';

const config: SpeakerConfig = {
  selfSpeaker: 'Mythos',
  speakerAliases: { '111': 'Ada', 'telegram:42': 'Bob' },
};

function message(overrides: Partial<MemoryMessage>): MemoryMessage {
  return {
    bot: 'mythos',
    source: 'discord',
    messageId: 'm1',
    speakerKind: 'user',
    text: 'hi',
    ts: 0,
    ...overrides,
  };
}

describe('resolveSpeaker', () => {
  test('names the agent selfSpeaker whatever name the client sent', () => {
    assert.equal(resolveSpeaker(message({ speakerKind: 'self', speakerName: 'bot#0001' }), config), 'Mythos');
  });

  test('an alias for the user id beats the name the client sent', () => {
    assert.equal(resolveSpeaker(message({ userId: '111', speakerName: 'ada_discord' }), config), 'Ada');
    assert.equal(resolveSpeaker(message({ userId: 'telegram:42', speakerName: 'bobby' }), config), 'Bob');
  });

  test('falls back to the sent name, then to User', () => {
    assert.equal(resolveSpeaker(message({ userId: '999', speakerName: 'Carol' }), config), 'Carol');
    assert.equal(resolveSpeaker(message({ userId: '999' }), config), 'User');
    assert.equal(resolveSpeaker(message({ speakerName: '   ' }), config), 'User');
  });

  test('ids that are Object prototype keys do not resolve to an alias', () => {
    assert.equal(resolveSpeaker(message({ userId: 'constructor', speakerName: 'Dan' }), config), 'Dan');
  });
});

describe('rewriteMentions', () => {
  test('replaces both mention forms of known ids with their names', () => {
    assert.equal(rewriteMentions('hey <@111> and <@!111>!', config.speakerAliases), 'hey Ada and Ada!');
  });

  test('leaves unknown ids, role and channel mentions as they are', () => {
    const text = 'ping <@222>, <@&111> in <#111>';
    assert.equal(rewriteMentions(text, config.speakerAliases), text);
  });
});
