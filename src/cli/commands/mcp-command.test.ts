/** @module `memory-pool mcp` as a child process, driven by the SDK's stdio client against a real service. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { testBot } from '../../config/test-support/test-bot.js';
import { startTestService, type TestService } from '../../service/test-support/start-test-service.js';
import { textOf } from '../../interfaces/mcp/test-support/mcp-test-client.js';
import type { RetrieveHit } from '../../wire/retrieve-request.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const cliArgs = ['--import', 'tsx', 'src/cli/main.ts', 'mcp'];

describe('memory-pool mcp (stdio)', () => {
  let service: TestService;
  let client: Client;
  before(async () => {
    service = await startTestService({
      config: {
        apiKeys: [
          {
            name: 'agent',
            key: 'stdio-key-12345678901234567',
            scopes: ['save', 'retrieve'],
            bots: '*',
            sources: '*',
          },
        ],
      },
    });
    client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [
          ...cliArgs,
          '--url',
          service.url,
          '--bot',
          'mythos',
          '--api-key',
          'stdio-key-12345678901234567',
        ],
        cwd: repoRoot,
        stderr: 'ignore',
      }),
    );
  });
  after(async () => {
    await client.close();
    await service.close();
  });

  test('remember -> flush -> recall through the bridge; the hit has source mcp', async () => {
    const saved = await client.callTool({
      name: 'remember',
      arguments: {
        speaker: 'Chloe',
        text: 'Chloe moved to Lisbon in March and is learning Portuguese with a tutor twice a week.',
      },
    });
    assert.match(textOf(saved), /Saved 1 new/);
    await service.writer.runOnce({ flush: true });
    const recalled = await client.callTool({
      name: 'recall',
      arguments: { query: 'Chloe Lisbon Portuguese' },
    });
    assert.match(textOf(recalled), /Lisbon/);
    const hits = (recalled.structuredContent as { hits: RetrieveHit[] }).hits;
    assert.equal(hits[0]?.source, 'mcp');
  });
});

test('memory-pool mcp with a --url that is not http fails at once and says so', () => {
  const result = spawnSync(process.execPath, [...cliArgs, '--url', 'localhost:3102'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /--url: .*pass e\.g\. http:\/\/127\.0\.0\.1:3102/);
});

test('memory-pool mcp --config finds the service and lists every bot as a resource', async () => {
  const service = await startTestService({ bots: [testBot('mythos'), testBot('echo')] });
  const dir = mkdtempSync(join(tmpdir(), 'mcp-config-'));
  const port = new URL(service.url).port;
  const configPath = join(dir, 'memory-pool.yaml');
  writeFileSync(
    configPath,
    `listen: { host: 127.0.0.1, port: ${port} }\nembedding: { provider: hashing, dimensions: 64 }\nbots:\n  mythos: { selfSpeaker: Mythos }\n  echo: { selfSpeaker: Echo }\n`,
  );
  const client = new Client({ name: 'test', version: '1.0.0' });
  try {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [...cliArgs, '--config', configPath],
        cwd: repoRoot,
        stderr: 'ignore',
      }),
    );
    const { resources } = await client.listResources();
    assert.deepEqual(resources.map((r) => r.uri).sort(), [
      'memory-pool://bots/echo',
      'memory-pool://bots/mythos',
    ]);
    const recalled = await client.callTool({ name: 'recall', arguments: { bot: 'echo', query: 'anything' } });
    assert.equal(recalled.isError, undefined, textOf(recalled));
  } finally {
    await client.close();
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('memory-pool mcp --help never prints the API key from the environment', () => {
  const result = spawnSync(process.execPath, [...cliArgs, '--help'], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, MEMORY_POOL_API_KEY: 'sk-secret-from-env-123456' },
  });
  assert.equal(result.status, 0);
  assert.match(result.stdout, /--api-key/);
  assert.doesNotMatch(result.stdout, /sk-secret-from-env/);
});
