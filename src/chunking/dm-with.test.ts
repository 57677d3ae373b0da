/**
 * @module Who a DM chunk is with (`dmWith`): the one account its people's messages came from, as its person when
 * linked; nothing where the chunk cannot say (recall then falls back to the DM's channel).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { toPeopleNames } from '../people/people-names.js';
import { formatChunk } from './chunk-format.js';
import type { MemoryMessage, SpeakerConfig } from './memory-message.js';

const people = toPeopleNames([
  {
    id: 'p_0123456789abcdef',
    name: 'Anna',
    createdAt: 0,
    updatedAt: 0,
    accounts: [
      { kind: 'user', value: 'discord:1234' },
      { kind: 'user', value: 'telegram:5678' },
      { kind: 'persona', value: 'Anna' },
    ],
  },
]);
const linked: SpeakerConfig = { selfSpeaker: 'Mythos', speakerAliases: {}, people };
const unlinked: SpeakerConfig = { selfSpeaker: 'Mythos', speakerAliases: {} };

let next = 0;
function dm(overrides: Partial<MemoryMessage>): MemoryMessage {
  next += 1;
  return {
    bot: 'mythos',
    source: 'discord',
    messageId: `m${next}`,
    speakerKind: 'user',
    text: 'the lighthouse',
    ts: 1_000 + next,
    channelId: 'dm-1',
    isDm: true,
    ...overrides,
  };
}
const reply = (): MemoryMessage => dm({ speakerKind: 'self', text: 'I remember' });

describe('dmWith on a DM chunk', () => {
  test('a linked account’s DM names the person; Discord’s bare id is the account discord:<id>', () => {
    assert.equal(formatChunk([dm({ userId: '1234' }), reply()], linked).dmWith, 'person:p_0123456789abcdef');
    const telegram = [dm({ source: 'hermes', userId: 'telegram:5678' }), reply()];
    assert.equal(formatChunk(telegram, linked).dmWith, 'person:p_0123456789abcdef');
  });

  test('an account linked to nobody is named as the account', () => {
    assert.equal(formatChunk([dm({ userId: '999' }), reply()], linked).dmWith, 'account:discord:999');
    assert.equal(formatChunk([dm({ userId: '1234' })], unlinked).dmWith, 'account:discord:1234');
    // A bare id from another interface is that interface's own id, not the Discord user.
    assert.equal(formatChunk([dm({ source: 'api', userId: '1234' })], linked).dmWith, 'account:1234');
  });

  test('a client id that looks like a person id still reads as an account', () => {
    const spoofed = [dm({ source: 'api', userId: 'person:p_0123456789abcdef' })];
    assert.equal(formatChunk(spoofed, linked).dmWith, 'account:person:p_0123456789abcdef');
  });

  test('no field where the chunk cannot say who: replies only, a persona, two accounts, not a DM', () => {
    assert.equal(formatChunk([reply(), reply()], linked).dmWith, undefined);
    assert.equal(formatChunk([dm({ speakerName: 'Anna' })], linked).dmWith, undefined);
    assert.equal(formatChunk([dm({ userId: '1234' }), dm({ userId: '999' })], linked).dmWith, undefined);
    assert.equal(formatChunk([dm({ userId: '1234' }), dm({ speakerName: 'Bo' })], linked).dmWith, undefined);
    const inGuild = dm({ userId: '1234', isDm: undefined, guildId: 'g1', channelId: 'general' });
    assert.equal(formatChunk([inGuild], linked).dmWith, undefined);
    assert.equal('dmWith' in formatChunk([inGuild], linked), false, 'no empty key in the stored JSON');
  });
});
