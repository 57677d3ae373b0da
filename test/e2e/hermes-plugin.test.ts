/** @module Runs the Hermes plugin's Python tests against a real memory-pool service started here. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService } from '../../src/service/test-support/start-test-service.js';
import { testBot } from '../../src/config/test-support/test-bot.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Runs a command to completion, collecting its output; resolves with the exit code. */
function runCommand(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** The real service the Python suites run against, with the bots they expect; its writer flushes often. */
async function startPythonSuiteService() {
  const service = await startTestService({
    bots: [
      testBot('mythos', { chunk: { minChars: 50, maxChars: 400, idleMs: 200 } }),
      // The Python suite checks that Hermes DMs stay in their own DM under this bot's privacy scope.
      testBot('private', {
        chunk: { minChars: 50, maxChars: 400, idleMs: 200 },
        retrieve: { limit: 5, scoreThreshold: 0.1, scope: 'dm-private' },
      }),
      // ...and that a group chat's memories stay in that group under the `guild` scope.
      testBot('guarded', {
        chunk: { minChars: 50, maxChars: 400, idleMs: 200 },
        retrieve: { limit: 5, scoreThreshold: 0.1, scope: 'guild' },
      }),
    ],
  });
  // Chunks reach the store only when the writer flushes; the Python side polls /retrieve meanwhile.
  const flusher = setInterval(() => {
    service.writer.runOnce({ flush: true }).catch(() => {});
  }, 200);
  return {
    url: service.url,
    async close() {
      clearInterval(flusher);
      await service.close();
    },
  };
}

// The two suites run at once, each against a service of its own (their chats and counts must not meet): the
// pip install is mostly CPU, the source-tree run mostly waits for chunks, so together they take the longer one.
describe('the Hermes memory-pool plugin', { concurrency: 2 }, () => {
  /**
   * Runs a Python suite with the live tests on; every test must run (none skipped). Its temporary folders go in
   * a folder of their own, removed afterwards; `left` receives what the suite left there.
   */
  async function runSuite(command: string, args: string[], left?: (names: string[]) => void): Promise<string> {
    const service = await startPythonSuiteService();
    const temp = mkdtempSync(join(tmpdir(), 'mp-hermes-suite-'));
    const { code, output } = await runCommand(command, args, {
      ...process.env,
      MEMORY_POOL_TEST_URL: service.url,
      PYTHONDONTWRITEBYTECODE: '1',
      TMPDIR: temp,
    }).finally(async () => {
      left?.(readdirSync(temp));
      rmSync(temp, { recursive: true, force: true });
      await service.close();
    });
    assert.equal(code, 0, `python tests failed:\n${output}`);
    assert.match(output, /Ran \d+ tests/);
    assert.doesNotMatch(output, /skipped/, `a live test was skipped:\n${output}`);
    return output;
  }

  test('passes its Python suite against the real service', async () => {
    await runSuite('python3', ['-m', 'unittest', 'discover', '-s', 'plugins/hermes/tests', '-v']);
  });

  test('installs offline with pip and passes the same suite as the installed copy', async () => {
    // Debian's python3 (pip, setuptools, wheel) builds it with --no-index; the suite loads it by entry point.
    let left: string[] = [];
    const output = await runSuite('bash', ['plugins/hermes/tests/install_and_test.sh'], (names) => {
      left = names;
    });
    assert.match(output, /InstalledCopy\.test_the_tests_exercise_the_copy_pip_installed.* \.\.\. ok/);
    assert.deepEqual(left, [], 'the script and the tests it ran leave no temporary folder behind');
  });
});
