import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MessageFacts } from './message-facts.js';
import { toSaveMessage } from './to-save-message.js';

const facts: MessageFacts = {
  id: '1100000000000000001',
  channelId: '1200000000000000001',
  guildId: '1300000000000000001',
  isDm: false,
  authorId: '1400000000000000001',
  authorName: 'Hel',
  authorIsBot: false,
  system: false,
  content:
    '<@1500000000000000001> and <@!1400000000000000002>, see <#1200000000000000002> <@&77> <:wave:123> <@999>',
  createdAt: 1_700_000_000_000,
  editedAt: null,
  mentionedUsers: new Map([
    ['1500000000000000001', 'Mythos-account'],
    ['1400000000000000002', 'Sam'],
  ]),
  mentionedChannels: new Map([['1200000000000000002', 'lore']]),
  mentionedRoles: new Map([['77', 'mods']]),
};
const names = { aliasedUserIds: new Set<string>(), selfUserId: '1500000000000000001', selfName: 'Mythos' };

test('a person: their id, display name, place and time; mentions read as names', () => {
  assert.deepEqual(toSaveMessage(facts, false, names), {
    speaker_kind: 'user',
    speaker_name: 'Hel',
    message_id: '1100000000000000001',
    text: 'Mythos and Sam, see #lore @mods :wave: <@999>',
    ts: 1_700_000_000_000,
    discord_user_id: '1400000000000000001',
    channel_id: '1200000000000000001',
    guild_id: '1300000000000000001',
    is_dm: false,
  });
});

test('an aliased mention is left for the service, which writes the alias; self and DMs are marked', () => {
  const aliased = { ...names, aliasedUserIds: new Set(['1400000000000000002']) };
  const dm = { ...facts, guildId: undefined, isDm: true, content: 'hi <@1400000000000000002>' };
  const saved = toSaveMessage(dm, true, aliased);
  assert.equal(saved.speaker_kind, 'self');
  assert.equal(saved.speaker_name, undefined);
  assert.equal(saved.text, 'hi <@1400000000000000002>');
  assert.equal(saved.is_dm, true);
  assert.equal(saved.guild_id, undefined);
});
