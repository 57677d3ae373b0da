import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { testBot } from '../../config/test-support/test-bot.js';
import { ConfigError } from '../../errors/memory-pool-error.js';
import { openSqliteJournal } from '../../journal/sqlite/sqlite-journal.js';
import { createLogger } from '../../logging/logger.js';
import type { DiscordMemory } from './discord-memory.js';
import { startDiscord } from './start-discord.js';
import { BOT_USER, testDiscordConfig } from './test-support/discord-harness.js';
import { startFakeDiscord } from './test-support/fake-discord.js';

const config = testDiscordConfig({ token: 'secret-token-value', channels: [], commands: 'off' });

const unused = () => Promise.reject(new Error('not used'));
const memory: DiscordMemory = {
  bot: testBot('mythos'),
  save: unused,
  forget: unused,
  count: async () => 0,
  recordedAmong: async () => new Set(),
  recordedInChannel: async () => [],
  retrieve: unused,
  stats: unused,
  createLinkCode: unused,
  linkCodeStatus: unused,
  redeemLinkCode: unused,
  linkedDiscordUserIds: async () => [],
  countOwnPerson: async () => undefined,
  forgetOwnPerson: async () => undefined,
};

/** Starts against a fake Discord and returns the start-up error, with every log line written meanwhile. */
async function startUpFailure(fake: Awaited<ReturnType<typeof startFakeDiscord>>) {
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-discord-'));
  const out = new PassThrough();
  const lines: string[] = [];
  out.on('data', (chunk: Buffer) => lines.push(chunk.toString('utf8')));
  const logger = createLogger({ level: 'debug', format: 'json', destination: out });
  const journal = openSqliteJournal(dir);
  try {
    await startDiscord({ config, memory, store: journal.discord, logger, restApi: fake.restBase });
  } catch (error) {
    return { error, logs: lines.join('') };
  } finally {
    await journal.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
  assert.fail('expected start-up to fail');
}

test('a gateway close 4014 stops start-up with the Message Content fix, and the token is never logged', async () => {
  const { error, logs } = await startUpFailure(
    await startFakeDiscord({ botUser: BOT_USER, closeOnIdentify: 4014 }),
  );
  assert.ok(error instanceof ConfigError);
  assert.match(error.message, /Message Content intent \(gateway close 4014\)/);
  assert.match(error.message, /Privileged Gateway Intents → Message Content Intent/);
  assert.ok(!logs.includes('secret-token-value'));
});

test('a refused token names discord.token and how to get a new one', async () => {
  const fake = await startFakeDiscord({ botUser: BOT_USER });
  fake.respond((call) =>
    call.path === '/gateway/bot'
      ? { status: 401, body: { message: '401: Unauthorized', code: 0 } }
      : undefined,
  );
  const { error, logs } = await startUpFailure(fake);
  assert.ok(error instanceof ConfigError);
  assert.match(error.message, /^config discord\.token: Discord refused the bot token/);
  assert.ok(!logs.includes('secret-token-value'));
});
