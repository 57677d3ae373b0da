import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config/load-config.js';
import { ConfigError } from '../errors/memory-pool-error.js';
import { applyDiscordCommandsFlag } from './discord-commands-option.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

describe('serve --discord-commands', () => {
  let dir: string;
  const write = (name: string, yaml: string) => {
    const path = join(dir, name);
    writeFileSync(path, yaml);
    return path;
  };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'memory-pool-discord-flag-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('overrides discord.commands from the config, and leaves it alone without the flag', () => {
    const path = write(
      'with-discord.yaml',
      'bots:\n  mythos: { selfSpeaker: Mythos }\ndiscord:\n  token: a-token\n  channels: ["200000000000000001"]\n  commands: global\n',
    );
    const loaded = loadConfig({ configPath: path, env: {} });
    assert.equal(applyDiscordCommandsFlag(loaded, undefined).discord?.commands, 'global');
    const overridden = applyDiscordCommandsFlag(loaded, 'off');
    assert.equal(overridden.discord?.commands, 'off');
    assert.deepEqual(overridden.discord?.channels, ['200000000000000001'], 'the rest of the section is kept');
    assert.equal(loaded.discord?.commands, 'global', 'the loaded config is not changed');
    assert.ok(Object.isFrozen(overridden.discord));
  });

  test('without a discord: section the flag is refused with the fix', () => {
    const loaded = loadConfig({
      configPath: write('plain.yaml', 'bots:\n  mythos: { selfSpeaker: Mythos }\n'),
      env: {},
    });
    assert.throws(
      () => applyDiscordCommandsFlag(loaded, 'guild'),
      (error: unknown) => error instanceof ConfigError && /needs a discord: section/.test(error.message),
    );
  });

  test('the CLI names the allowed values, and stops before starting anything', () => {
    const plain = write('plain-cli.yaml', 'bots:\n  mythos: { selfSpeaker: Mythos }\n');
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '-c', plain, ...args], {
        cwd: repoRoot,
        encoding: 'utf8',
        env: { ...process.env, DISCORD_TOKEN: '' },
        timeout: 30_000,
      });
    const wrongValue = run('--discord-commands', 'everywhere');
    assert.notEqual(wrongValue.status, 0);
    assert.match(wrongValue.stderr, /--discord-commands <where>.*Allowed choices are guild, global, off/);
    const noSection = run('--discord-commands', 'global');
    assert.equal(noSection.status, 1);
    assert.match(noSection.stderr, /config discord: --discord-commands needs a discord: section/);
  });
});
