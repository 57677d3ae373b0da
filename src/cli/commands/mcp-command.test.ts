/** @module `memory-pool mcp` as a child process, driven by the SDK's stdio client against a real service. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RetrieveHit } from '../../api/retrieve-request.js';
import { type TestService, startTestService } from '../../server/test-support/start-test-service.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const cliArgs = ['--import', 'tsx', 'src/cli/main.ts', 'mcp'];

const textOf = (result: unknown): string => {
  const first = (result as CallToolResult).content[0];
  return first?.type === 'text' ? first.text : '';
};

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
