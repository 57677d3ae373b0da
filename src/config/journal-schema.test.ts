import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { InvalidConfigError } from './config-problems.js';
import { describeConfig } from './describe-config.js';
import { loadConfig } from './load-config.js';

const PASSWORD = 'pg-pass-Secret';

/** The problems loadConfig reports for a config file and env. */
function problemsOf(yaml: string, env: NodeJS.ProcessEnv = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'memory-pool-journal-config-'));
  writeFileSync(join(cwd, 'memory-pool.yaml'), yaml);
  try {
    loadConfig({ cwd, env });
  } catch (error) {
    assert.ok(error instanceof InvalidConfigError, String(error));
    assert.ok(!error.message.includes(PASSWORD), `the password leaked: ${error.message}`);
    return error.problems;
  }
  assert.fail('the config was accepted');
}

/** The config loadConfig accepts for a config file and env. */
function configOf(yaml: string, env: NodeJS.ProcessEnv = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'memory-pool-journal-config-'));
  writeFileSync(join(cwd, 'memory-pool.yaml'), yaml);
  return loadConfig({ cwd, env });
}

test('a Postgres journal URL is taken from the env or the file (the server is checked when the journal opens)', () => {
  const url = `postgres://pool:${PASSWORD}@db:5432/memory`;
  assert.deepEqual(configOf('', { MEMORY_POOL_POSTGRES_URL: url }).journal, { postgres: { url } });
  const fromFile = `postgresql://pool:${PASSWORD}@db/memory`;
  assert.deepEqual(configOf(`journal: { postgres: { url: "${fromFile}" } }`).journal, {
    postgres: { url: fromFile },
  });
  assert.equal(configOf('').journal, undefined, 'unset: SQLite under dataDir, as always');
});

test('a URL that is not postgres:// is a problem naming the key, without echoing the value', () => {
  for (const url of [`mysql://pool:${PASSWORD}@db/memory`, `pool:${PASSWORD}@db`, 'postgres:///memory']) {
    const [problem, ...more] = problemsOf(`journal: { postgres: { url: "${url}" } }`);
    assert.equal(more.length, 0);
    assert.equal(problem?.path, 'journal.postgres.url');
    assert.match(problem!.message, /expected a postgres:\/\/ URL/);
  }
  const [unknown] = problemsOf('journal: { postgress: { url: x } }');
  assert.equal(unknown?.path, 'journal.postgress');
});

test('describeConfig masks the credentials of the Postgres URL', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'memory-pool-journal-config-'));
  const config = loadConfig({ cwd, env: {} });
  const described = describeConfig({
    ...config,
    journal: { postgres: { url: `postgres://pool:${PASSWORD}@db:5432/memory` } },
  });
  assert.deepEqual(described.journal, { postgres: { url: 'postgres://pool:[set]@db:5432/memory' } });
  // A URL without a password shows its user name as written: nothing secret is there to mask.
  const passwordless = describeConfig({
    ...config,
    journal: { postgres: { url: 'postgres://memory@db/memory' } },
  });
  assert.deepEqual(passwordless.journal, { postgres: { url: 'postgres://memory@db/memory' } });
});

test('a URL with a raw @ or # in its password is refused without echoing it; one with ?password= is masked', () => {
  for (const url of [`postgres://u:${PASSWORD}@x@db/memory`, `postgres://u:${PASSWORD}#x@db/memory`]) {
    const [problem, ...more] = problemsOf(`journal: { postgres: { url: "${url}" } }`);
    assert.equal(more.length, 0);
    assert.equal(problem?.path, 'journal.postgres.url');
    assert.match(problem!.message, /raw @ or #/);
  }
  const config = loadConfig({ cwd: mkdtempSync(join(tmpdir(), 'memory-pool-journal-config-')), env: {} });
  for (const url of [
    `postgres://db/memory?password=${PASSWORD}`,
    `postgres://u:p@ss#${PASSWORD}@db/memory`,
  ]) {
    const shown = JSON.stringify(describeConfig({ ...config, journal: { postgres: { url } } }).journal);
    assert.ok(!shown.includes(PASSWORD), `the password leaked: ${shown}`);
  }
});

test('journal.claimMs sets how long a chunk writer claim lasts; unset, the writer keeps its 30 s', () => {
  assert.equal(configOf('journal: { claimMs: 5000 }').journal?.claimMs, 5000);
  assert.equal(configOf('').journal?.claimMs, undefined, 'unset: the chunk writer default');
  for (const value of ['0', '999', '"soon"']) {
    const [problem] = problemsOf(`journal: { claimMs: ${value} }`);
    assert.equal(problem?.path, 'journal.claimMs');
    assert.match(problem!.message, /an integer from 1000 to 600000.*Set milliseconds/);
  }
});
