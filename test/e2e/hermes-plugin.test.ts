/** @module Runs the Hermes plugin's Python tests against a real memory-pool service started here. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
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

test('the Hermes memory-pool plugin passes its Python suite against the real service', async () => {
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
  try {
    const { code, output } = await runCommand(
      'python3',
      ['-m', 'unittest', 'discover', '-s', 'plugins/hermes/tests', '-v'],
      {
        ...process.env,
        MEMORY_POOL_TEST_URL: service.url,
        PYTHONDONTWRITEBYTECODE: '1',
      },
    );
    assert.equal(code, 0, `python tests failed:\n${output}`);
    assert.match(output, /Ran \d+ tests/);
    assert.doesNotMatch(output, /skipped/, `a live test was skipped:\n${output}`);
  } finally {
    clearInterval(flusher);
    await service.close();
  }
});
