/**
 * @module The companion's own replies that mention a linked Discord account (`<@id>`) read the person's name, as
 * the user's messages do: written so at once after a link, and rewritten by the rename pass when written before
 * it (the pass's mention scan reads every message, the companion's too), on both journal backends.
 */
// npm test: alone (starts Postgres, through describeOnBothJournals)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testBot } from '../config/test-support/test-bot.js';
import {
  describeOnBothJournals,
  type OpenJournal,
  startPeopleService,
} from './test-support/people-service.js';

const DAY = Date.UTC(2026, 10, 2, 9);
const HOUR = 3_600_000;

function defineCases(open: OpenJournal): void {
  test('a reply mentioning a linked account names the person, before the link’s pass and after', {
    timeout: 30_000,
  }, async () => {
    const journal = await open();
    const s = await startPeopleService(journal, testBot('mythos'));
    try {
      // As the Discord recorder saves a DM: the user by Discord id, the companion's replies as `self` (the recorder
      // keeps a linked account's mention as `<@id>`, linked-mentions.test.ts).
      const save = (id: string, speaker: object, text: string, at: number) =>
        s.call('POST', '/save', {
          bot: 'mythos',
          source: 'discord',
          messages: [{ message_id: id, text, ts: DAY + at, channel_id: 'dm-1', is_dm: true, ...speaker }],
        });
      const user = { speaker_kind: 'user', discord_user_id: '1234', speaker_name: 'anna_d' };
      const self = { speaker_kind: 'self' };
      await save('u1', user, 'do you remember the lighthouse?', 0);
      await save('r1', self, 'Of course <@1234>, the lighthouse at dusk.', 1000);
      await s.writer.runOnce({ flush: true });
      const chunkOf = (id: string) =>
        s.store
          .heldPoints('mem_mythos')
          .map((p) => String(p.payload.text))
          .find((text) => text.includes(id));
      assert.match(chunkOf('at dusk') ?? '', /Mythos: Of course <@1234>, the lighthouse at dusk\./);

      await s.call('POST', '/bots/mythos/people', { name: 'Anna', accounts: [{ discord_user_id: '1234' }] });
      await s.finishRenames();
      assert.match(chunkOf('at dusk') ?? '', /Anna: do you remember/);
      assert.match(chunkOf('at dusk') ?? '', /Mythos: Of course Anna, the lighthouse at dusk\./);

      // A reply after the link, a day later (its own chunk): the person's name at once.
      await save('u2', user, 'and the harbour?', 26 * HOUR);
      await save('r2', self, 'Yes <@1234>, the harbour too.', 26 * HOUR + 1000);
      await s.writer.runOnce({ flush: true });
      assert.match(
        chunkOf('harbour too') ?? '',
        /Anna: and the harbour\?\nMythos: Yes Anna, the harbour too\./,
      );
    } finally {
      await s.close();
    }
  });
}

describeOnBothJournals('companion replies mentioning a linked account', defineCases);
