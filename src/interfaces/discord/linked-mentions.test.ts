/**
 * @module Mentions of a linked Discord user (docs/people.md): the recorder keeps `<@id>` so the memory names
 * the person (not the display name Discord showed), within ~1 s of a link made anywhere; unlinked users' mentions
 * still read as their display names.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { PEOPLE_CACHE_MS } from '../../people/people-names.js';
import {
  BOT_USER,
  type DiscordHarness,
  HELEN,
  messagePayload,
  SAM,
  startDiscordHarness,
} from './test-support/discord-harness.js';

describe('the recorder and linked people', () => {
  let h: DiscordHarness;
  before(async () => {
    h = await startDiscordHarness();
  });
  after(() => h.close());

  test('a mention of a linked Discord account is written under the person’s name', async () => {
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ content: `before: ask <@${SAM.id}> about the kettle`, mentions: [SAM] }),
    );
    const linked = await h.service.post('/bots/mythos/people', {
      name: 'Samuel',
      accounts: [{ discord_user_id: SAM.id }, { user_id: 'telegram:42' }],
    });
    assert.equal(linked.status, 201, JSON.stringify(linked.json));
    await sleep(PEOPLE_CACHE_MS + 50);
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({
        author: HELEN,
        content: `after: ask <@${SAM.id}> about the teapot`,
        mentions: [SAM],
      }),
    );
    // The companion's own message (a reply, as the gateway echoes it) is recorded the same way.
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({
        author: { ...BOT_USER, bot: true },
        content: `reply: <@${SAM.id}> knows the teapot`,
        mentions: [SAM],
      }),
    );
    await h.flush();
    const texts = (await h.recall('kettle teapot')).join('\n');
    assert.match(texts, /after: ask Samuel about the teapot/);
    assert.match(texts, /Mythos: reply: Samuel knows the teapot/);
    // Written as Discord showed it before the link: the display name, which no rename can reach.
    assert.match(texts, /before: ask Sam about the kettle/);
  });
});
