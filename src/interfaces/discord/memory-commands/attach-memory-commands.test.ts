import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DiscordConfig } from '../../../config/config-types.js';
import { BOT_USER, GUILD, guildPayload, startDiscordHarness } from '../test-support/discord-harness.js';

const LATER_GUILD = '100000000000000002';

/** The command registrations the bot made with each `commands` mode, a guild joined later included. */
async function registrationsWith(commands: DiscordConfig['commands']) {
  const h = await startDiscordHarness({ commands });
  try {
    await h.send('GUILD_CREATE', { ...guildPayload(), id: LATER_GUILD, name: 'Porto friends', channels: [] });
    return h.fake.calls
      .filter((call) => call.path.endsWith('/commands'))
      .map((call) => ({
        call: `${call.method} ${call.path}`,
        names: (call.body as { name: string }[]).map((command) => command.name),
      }));
  } finally {
    await h.close();
  }
}

const app = `/applications/${BOT_USER.id}`;

test('commands: guild registers /memory in each guild at once, one joined later too', async () => {
  assert.deepEqual(await registrationsWith('guild'), [
    { call: `PUT ${app}/guilds/${GUILD}/commands`, names: ['memory'] },
    { call: `PUT ${app}/guilds/${LATER_GUILD}/commands`, names: ['memory'] },
  ]);
});

test('commands: global registers /memory once for the application, never per guild', async () => {
  assert.deepEqual(await registrationsWith('global'), [{ call: `PUT ${app}/commands`, names: ['memory'] }]);
});

test('commands: off registers nothing', async () => {
  assert.deepEqual(await registrationsWith('off'), []);
});
