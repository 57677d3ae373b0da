import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DiscordConfig } from '../../../config/config-types.js';
import { BOT_USER, GUILD, guildPayload, startDiscordHarness } from '../test-support/discord-harness.js';
import type { FakeDiscord } from '../test-support/fake-discord.js';

const LATER_GUILD = '100000000000000002';

const app = `/applications/${BOT_USER.id}`;

/** A command as Discord lists an application's registrations. */
const registered = (id: string, name: string) => ({
  id,
  application_id: BOT_USER.id,
  guild_id: GUILD,
  name,
  description: name,
  type: 1,
  version: '1',
  default_member_permissions: null,
});

/**
 * The command calls the bot made with each `commands` mode, a guild joined later included, in a stable order
 * (calls to different routes run side by side). `prepare` sets Discord's answers.
 */
async function registrationsWith(commands: DiscordConfig['commands'], prepare?: (fake: FakeDiscord) => void) {
  const h = await startDiscordHarness({ commands }, { ...(prepare === undefined ? {} : { prepare }) });
  try {
    await h.send('GUILD_CREATE', { ...guildPayload(), id: LATER_GUILD, name: 'Porto friends', channels: [] });
    return h.fake.calls
      .filter((call) => call.path.startsWith(app) && /\/commands(\/\d+)?$/.test(call.path))
      .map((call) => ({
        call: `${call.method} ${call.path}`,
        names: Array.isArray(call.body)
          ? (call.body as { name: string }[]).map((command) => command.name)
          : [],
      }))
      .sort((a, b) => a.call.localeCompare(b.call));
  } finally {
    await h.close();
  }
}

test('commands: guild registers /memory in each guild at once, one joined later too', async () => {
  assert.deepEqual(await registrationsWith('guild'), [
    { call: `PUT ${app}/guilds/${GUILD}/commands`, names: ['memory'] },
    { call: `PUT ${app}/guilds/${LATER_GUILD}/commands`, names: ['memory'] },
  ]);
});

test('commands: global registers /memory once for the application, and removes only the per-guild /memory left from guild mode', async () => {
  const calls = await registrationsWith('global', (fake) =>
    fake.respond((call) => {
      if (call.method !== 'GET') return undefined;
      if (call.path === `${app}/guilds/${GUILD}/commands`)
        return {
          body: [registered('710000000000000001', 'memory'), registered('710000000000000002', 'dice')],
        };
      if (call.path === `${app}/guilds/${LATER_GUILD}/commands`) return { body: [] };
      return undefined;
    }),
  );
  assert.deepEqual(calls, [
    { call: `DELETE ${app}/guilds/${GUILD}/commands/710000000000000001`, names: [] },
    { call: `GET ${app}/guilds/${GUILD}/commands`, names: [] },
    { call: `GET ${app}/guilds/${LATER_GUILD}/commands`, names: [] },
    { call: `PUT ${app}/commands`, names: ['memory'] },
  ]);
});

test('commands: off registers nothing', async () => {
  assert.deepEqual(await registrationsWith('off'), []);
});
