/**
 * @module `people.vouchers` at start: today's trust model when unset, a mapping of platform to sources when set,
 * and a malformed one refused naming the key and how to write it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { InvalidConfigError } from './config-problems.js';
import { loadConfig } from './load-config.js';

function load(yaml: string) {
  const cwd = mkdtempSync(join(tmpdir(), 'memory-pool-people-config-'));
  writeFileSync(join(cwd, 'memory-pool.yaml'), yaml);
  return loadConfig({ cwd, env: {} });
}

function problemsOf(yaml: string) {
  try {
    load(yaml);
  } catch (error) {
    assert.ok(error instanceof InvalidConfigError, String(error));
    return error.problems;
  }
  assert.fail('the config was accepted');
}

test('unset, people.vouchers is the trust model as it was: Discord users by discord and hermes, others by hermes', () => {
  assert.deepEqual(load('').people?.vouchers, { discord: ['discord', 'hermes'], '*': ['hermes'] });
});

test('set, it replaces the default; Discord in any case is discord, a source listed twice once', () => {
  assert.deepEqual(
    load('people: { vouchers: { Discord: [discord, discord], telegram: [tg-bot], slack: [] } }').people
      ?.vouchers,
    {
      discord: ['discord'],
      telegram: ['tg-bot'],
      slack: [],
    },
  );
});

test('platform names are lowercased, and two differing only by case are refused at start naming both', () => {
  assert.deepEqual(load('people: { vouchers: { Telegram: [tg-bot], "*": [hermes] } }').people?.vouchers, {
    telegram: ['tg-bot'],
    '*': ['hermes'],
  });
  const [problem] = problemsOf('people: { vouchers: { telegram: [hermes], Telegram: [tg-bot] } }');
  assert.match(problem!.path, /^people\.vouchers/);
  assert.match(problem!.message, /"telegram" and "Telegram" name the same platform/);
});

test('a malformed people.vouchers is refused at start naming the key and the fix', () => {
  const cases: [string, RegExp][] = [
    ['people: { vouchers: [hermes] }', /expected a mapping/],
    ['people: { vouchers: { telegram: hermes } }', /expected a list of sources/],
    ['people: { vouchers: { "tele gram": [hermes] } }', /platform name/],
    ['people: { vouchers: { "telegram:": [hermes] } }', /platform name/],
    ['people: { vouchers: { telegram: [""] } }', /not an empty one/],
    ['people: { voucher: {} }', /vouchers/],
  ];
  for (const [yaml, message] of cases) {
    const [problem] = problemsOf(yaml);
    assert.match(problem!.path, /^people\.voucher/, yaml);
    assert.match(problem!.message, message, yaml);
  }
});
