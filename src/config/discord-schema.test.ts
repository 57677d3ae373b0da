import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { InvalidConfigError } from './config-problems.js';
import { describeConfig } from './describe-config.js';
import { loadConfig } from './load-config.js';

const BOTS = 'bots:\n  mythos: { selfSpeaker: Mythos }\n';

function load(yaml: string, env: NodeJS.ProcessEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-discord-config-'));
  writeFileSync(join(dir, 'memory-pool.yaml'), yaml);
  return loadConfig({ cwd: dir, env });
}

function refusal(yaml: string, env: NodeJS.ProcessEnv = {}): string {
  try {
    load(yaml, env);
  } catch (error) {
    assert.ok(error instanceof InvalidConfigError, String(error));
    return error.message;
  }
  assert.fail('expected the config to be refused');
}

test('a discord section gets its defaults, and DISCORD_TOKEN fills the token', () => {
  const config = load(`${BOTS}discord: { guilds: ["705500000000000002"] }\n`, { DISCORD_TOKEN: 'tok-123' });
  assert.deepEqual(config.discord, {
    token: 'tok-123',
    guilds: ['705500000000000002'],
    channels: [],
    denyChannels: [],
    dms: false,
    otherBots: 'none',
    purgeOnLeave: false,
    backfill: 0,
    commands: 'guild',
    recallScope: 'guild',
  });
  assert.equal(load(BOTS).discord, undefined, 'no section, no Discord connection');
});

test('the token never appears in the logged config', () => {
  const config = load(`${BOTS}discord: { token: "\${MY_TOKEN}" }\n`, { MY_TOKEN: 'very-secret-token' });
  assert.equal(config.discord?.token, 'very-secret-token');
  const logged = JSON.stringify(describeConfig(config));
  assert.ok(!logged.includes('very-secret-token'), logged);
  assert.match(logged, /"token":"\[set\]"/);
});

test('a missing token names the key and the variable', () => {
  assert.match(refusal(`${BOTS}discord: { dms: true }\n`), /discord\.token: is required\. .*DISCORD_TOKEN/);
});

test('ids are kept exact whether quoted or not, and anything else is refused with the fix', () => {
  const config = load(`${BOTS}discord: { token: t, channels: [705512345678901234, "705512345678901235"] }\n`);
  assert.deepEqual(config.discord?.channels, ['705512345678901234', '705512345678901235']);
  assert.match(
    refusal(`${BOTS}discord: { token: t, guilds: ["#general"] }\n`),
    /discord\.guilds\[0\]: expected a Discord id/,
  );
  assert.match(
    refusal(`${BOTS}discord: { token: t, guilds: [42] }\n`),
    /discord\.guilds\[0\]: expected a Discord id/,
  );
});

test('discord.bot must name a bot, and is required with several', () => {
  const two = 'bots:\n  a: { selfSpeaker: A }\n  b: { selfSpeaker: B }\n';
  assert.match(
    refusal(`${two}discord: { token: t }\n`),
    /discord\.bot: is required with several bots\. Name one of a, b/,
  );
  assert.match(refusal(`${two}discord: { token: t, bot: c }\n`), /discord\.bot: names the bot "c"/);
  assert.equal(load(`${two}discord: { token: t, bot: b }\n`).discord?.bot, 'b');
});

test('a companion needs a persona, and its card path resolves next to the config file', () => {
  const companion = 'companion: { baseUrl: "http://127.0.0.1:11434/v1/", model: llama3.1';
  assert.match(
    refusal(`${BOTS}discord: { token: t, ${companion} } }\n`),
    /discord\.companion\.card: a companion needs a persona\. Set card .* or systemPrompt/,
  );
  const config = load(
    `${BOTS}discord: { token: t, ${companion}, card: cards/m.png, apiKey: sk-chat-secret } }\n`,
  );
  assert.match(config.discord?.companion?.card ?? '', /memory-pool-discord-config-[^/]+\/cards\/m\.png$/);
  assert.equal(config.discord?.companion?.baseUrl, 'http://127.0.0.1:11434/v1');
  assert.ok(!JSON.stringify(describeConfig(config)).includes('sk-chat-secret'));
});

test('a companion with selfUserId is refused: this account replies, so it is self already', () => {
  const companion = 'companion: { baseUrl: "http://127.0.0.1:11434/v1", model: llama3.1, systemPrompt: hi }';
  assert.match(
    refusal(`${BOTS}discord: { token: t, selfUserId: "705500000000000009", ${companion} }\n`),
    /discord\.selfUserId: .*companion.*Remove selfUserId/,
  );
  assert.equal(load(`${BOTS}discord: { token: t, ${companion} }\n`).discord?.selfUserId, undefined);
});
