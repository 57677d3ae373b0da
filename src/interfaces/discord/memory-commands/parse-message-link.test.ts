import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseMessageLink } from './parse-message-link.js';

test('guild and DM links give their ids; anything else is not a link', () => {
  assert.deepEqual(parseMessageLink(' https://discord.com/channels/1/22/333 '), {
    guildId: '1',
    channelId: '22',
    messageId: '333',
  });
  assert.deepEqual(parseMessageLink('https://ptb.discord.com/channels/@me/22/333'), {
    channelId: '22',
    messageId: '333',
  });
  assert.equal(parseMessageLink('https://evil.example/channels/1/22/333'), undefined);
  assert.equal(parseMessageLink('333'), undefined);
});
