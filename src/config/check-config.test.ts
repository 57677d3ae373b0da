import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { InvalidConfigError } from './config-problems.js';
import { loadConfig } from './load-config.js';

function load(yaml: string, env: NodeJS.ProcessEnv = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'memory-pool-check-'));
  writeFileSync(join(cwd, 'memory-pool.yaml'), yaml);
  return loadConfig({ cwd, env });
}

function problemsFor(yaml: string, env: NodeJS.ProcessEnv = {}): string[] {
  try {
    load(yaml, env);
  } catch (error) {
    assert.ok(error instanceof InvalidConfigError, String(error));
    return error.message.split('\n').slice(1);
  }
  assert.fail('expected the config to be refused');
}

const KEY = 'apiKeys: [{ name: bot, key: 0123456789abcdef, bots: "*" }]\n';

describe('listening beyond loopback', () => {
  test('is refused without API keys, saying how to allow it', () => {
    const [problem] = problemsFor('listen: { host: 0.0.0.0 }');
    assert.match(
      problem!,
      /listen\.host: "0\.0\.0\.0" is reachable from other machines.*Add apiKeys .* or use 127\.0\.0\.1/,
    );
  });

  test('names the environment variable that asked for it', () => {
    const [problem] = problemsFor('', { MEMORY_POOL_HOST: '192.168.1.20' });
    assert.match(problem!, /listen\.host \(from MEMORY_POOL_HOST\): "192\.168\.1\.20" is reachable/);
  });

  test('is refused for the embedded store host without the store key, even with service API keys', () => {
    const [problem] = problemsFor(`store: { embedded: { host: "::" } }\n${KEY}`);
    assert.match(
      problem!,
      /store\.embedded\.apiKey: must be set because store\.embedded\.host "::" is reachable/,
    );
    const store = load(`store: { embedded: { host: "::", apiKey: 0123456789abcdefXYZ } }`).store;
    assert.equal(store.kind === 'embedded' && store.host, '::');
  });

  test('is allowed once API keys are configured', () => {
    assert.equal(load(`listen: { host: 0.0.0.0 }\n${KEY}`).listen.host, '0.0.0.0');
  });
});

describe('API keys', () => {
  test('a key shared by two entries, or a reused name, is refused', () => {
    const problems = problemsFor(
      'apiKeys:\n  - { name: a, key: 0123456789abcdef, bots: "*" }\n  - { name: a, key: 0123456789abcdef, bots: "*" }\n',
    );
    assert.ok(
      problems.some((p) =>
        p.includes('apiKeys[1].key: is the same key as apiKeys[0]. Give each client its own key'),
      ),
    );
    assert.ok(problems.some((p) => p.includes('apiKeys[1].name: "a" is already the name of apiKeys[0]')));
  });

  test('a key naming a bot that is not configured is refused, listing the bots', () => {
    const [problem] = problemsFor(
      'bots: { mythos: { selfSpeaker: Mythos } }\napiKeys: [{ name: a, key: 0123456789abcdef, bots: [mytho] }]\n',
    );
    assert.match(
      problem!,
      /apiKeys\[0\]\.bots: names the bot "mytho", which is not configured\. Use one of mythos, or '\*'/,
    );
  });

  test('keyEnv reads the key from the environment, and names the variable when unset', () => {
    const yaml = 'apiKeys: [{ name: a, keyEnv: DISCORD_KEY, bots: "*" }]\n';
    assert.equal(load(yaml, { DISCORD_KEY: 'abcdefghijklmnopq' }).apiKeys[0]?.key, 'abcdefghijklmnopq');
    assert.match(
      problemsFor(yaml).join('\n'),
      /apiKeys\[0\]\.keyEnv: the environment variable DISCORD_KEY is not set/,
    );
    assert.match(
      problemsFor(yaml, { DISCORD_KEY: 'short' }).join('\n'),
      /apiKeys\[0\]\.key \(from DISCORD_KEY\): is 5 characters long/,
    );
  });
});

describe('collections', () => {
  test('two bots may not share one collection', () => {
    const [problem] = problemsFor('bots:\n  a: { selfSpeaker: Mythos }\n  b: { selfSpeaker: Mythos }\n');
    assert.match(problem!, /bots\.b\.collection: "mem_mythos" is already the collection of bots\.a/);
  });
});
