/**
 * @module The DM scopes by `dmWith` (recall-scope.ts): with the person's values trusted, a DM point is theirs by
 * its field wherever it was written, a point naming someone else is not theirs even in a channel of theirs, and a
 * point with no field is theirs by its channel; without the values, the channels decide as before the field.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RecallScope } from '../config/config-types.js';
import { matchFilter } from '../store/test-support/match-filter.js';
import { buildRecallFilter, type RecallContext } from './recall-scope.js';

const dm = (id: string, source: string, channelId: string, dmWith?: string) => ({
  id,
  payload: { isDm: true, source, channelId, ...(dmWith === undefined ? {} : { dmWith }) },
});
const POINTS = [
  dm('this-dm', 'hermes', 'tg-anna', 'person:p_anna'),
  dm('her-discord', 'discord', 'dm-anna', 'person:p_anna'),
  dm('her-discord-before-link', 'discord', 'dm-anna2', 'account:discord:1234'),
  dm('her-unlisted', 'discord', 'dm-elsewhere', 'person:p_anna'),
  dm('her-replies-only', 'discord', 'dm-anna'),
  dm('bob-in-her-channel', 'discord', 'dm-anna', 'account:discord:999'),
  dm('bob', 'discord', 'dm-bob'),
  dm('bob-named', 'discord', 'dm-bob', 'account:discord:999'),
  dm('spoofed', 'api', 'dm-spoof', 'account:person:p_anna'),
  { id: 'public', payload: { source: 'discord', channelId: 'general', guildId: 'g1' } },
];
const inHerTelegram: RecallContext = {
  channelId: 'tg-anna',
  isDm: true,
  personDms: [
    { source: 'discord', channelId: 'dm-anna' },
    { source: 'hermes', channelId: 'tg-anna' },
  ],
};
const herValues = ['person:p_anna', 'account:discord:1234', 'account:telegram:5678'];

function kept(scope: RecallScope, context: RecallContext): string[] {
  const filter = buildRecallFilter(scope, context);
  return POINTS.filter((point) => matchFilter(filter, { id: 1, payload: point.payload })).map((p) => p.id);
}

describe('a linked person’s DM scope by dmWith', () => {
  for (const scope of ['dm-private', 'guild', 'channel'] as const) {
    test(`${scope}: the field decides where there is one, the channel where there is none`, () => {
      const byField = kept(scope, { ...inHerTelegram, personDmWith: herValues });
      assert.deepEqual(
        byField.filter((id) => id !== 'public'),
        ['this-dm', 'her-discord', 'her-discord-before-link', 'her-unlisted', 'her-replies-only'],
      );
      // Without trusted values (a rename of the bot left): the journal's channels, as before the field.
      const byChannel = kept(scope, inHerTelegram);
      assert.deepEqual(
        byChannel.filter((id) => id !== 'public'),
        ['this-dm', 'her-discord', 'her-replies-only', 'bob-in-her-channel'],
      );
    });
  }

  test('outside a DM the values widen nothing', () => {
    const inGuild: RecallContext = { guildId: 'g1', channelId: 'general', personDmWith: herValues };
    assert.deepEqual(kept('dm-private', inGuild), ['public']);
  });
});
