/** @module Tests `memory-pool qdrant` as a user runs it: a child process that serves Qdrant's API and refuses unsafe binds. */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'mp-qdrant-cli-'));
// Empty key variables must count as unset, and LOG_LEVEL makes the start-up line visible under the test runner.
const env = {
  ...process.env,
  LOG_LEVEL: 'info',
  MEMORY_POOL_QDRANT_API_KEY: '',
  MEMORY_POOL_QDRANT_READ_ONLY_API_KEY: '',
};

/** Resolves with the URL from the start-up log line. */
async function readListeningUrl(child: ChildProcess): Promise<string> {
  let output = '';
  for await (const chunk of child.stdout!) {
    output += String(chunk);
    const match = /"url":"(http:\/\/[^"]+)"/.exec(output);
    if (match) return match[1]!;
  }
  throw new Error(`the command exited without a start-up line: ${output}`);
}

describe('memory-pool qdrant', () => {
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  test('serves GET /collections on a free port and stops on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        MAIN,
        'qdrant',
        '--data',
        dataDir,
        '--port',
        '0',
        '--cors-origin',
        'http://st.home.arpa:8000',
      ],
      {
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const url = await readListeningUrl(child);
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const response = await fetch(`${url}/collections`);
      assert.equal(response.status, 200);
      const body = (await response.json()) as { result: unknown; status: string };
      assert.deepEqual(body.result, { collections: [] });
      assert.equal(body.status, 'ok');
      // Without a key: the --cors-origin page and loopback pages may call it, other web pages may not.
      for (const [origin, status] of [
        ['http://st.home.arpa:8000', 200],
        ['http://localhost:8000', 200],
        ['http://st.home.arpa:8001', 403],
      ] as const) {
        const reply = await fetch(`${url}/collections`, { headers: { origin } });
        assert.equal(reply.status, status, origin);
      }
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = await exited;
      assert.equal(code, 0);
    }
  });

  test('refuses a non-loopback host without an API key and says how to fix it', () => {
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', MAIN, 'qdrant', '--data', dataDir, '--host', '0.0.0.0', '--port', '0'],
      { env, encoding: 'utf8' },
    );
    assert.equal(result.status, 1);
    assert.match(result.stderr, /refusing to listen on 0\.0\.0\.0 without an API key/);
    assert.match(result.stderr, /--api-key/);
  });

  test('refuses a --cors-origin that is not an origin', () => {
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', MAIN, 'qdrant', '--data', dataDir, '--cors-origin', 'st.home.arpa'],
      { env, encoding: 'utf8' },
    );
    assert.equal(result.status, 1);
    assert.match(result.stderr, /--cors-origin.*expected a web origin such as http:\/\/192\.168\.1\.5:8000/);
  });
});
