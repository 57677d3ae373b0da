/** @module The MCP server's tools and resource, driven by the SDK's client over an in-memory transport. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RetrieveHit } from '../../api/retrieve-request.js';
import { MemoryPoolClient } from '../../client/memory-pool-client.js';
import { type TestService, startTestService } from '../../server/test-support/start-test-service.js';
import { createMcpServer } from './create-mcp-server.js';
import type { MemoryBackend } from './memory-backend.js';

async function connect(backend: MemoryBackend, defaultBot?: string): Promise<Client> {
  const server = createMcpServer({ backend, ...(defaultBot === undefined ? {} : { defaultBot }) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

const textOf = (result: unknown): string => {
  const first = (result as CallToolResult).content[0];
  return first?.type === 'text' ? first.text : '';
};

describe('createMcpServer against a real service', () => {
  let service: TestService;
  let client: Client;
  before(async () => {
    service = await startTestService();
    client = await connect(new MemoryPoolClient({ baseUrl: service.url }), 'mythos');
  });
  after(async () => {
    await client.close();
    await service.close();
  });

  test('lists the tools', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['recall', 'remember']);
  });

  test('recall on an empty memory says so', async () => {
    const result = await client.callTool({ name: 'recall', arguments: { query: 'anything at all' } });
    assert.equal(textOf(result), 'No memories found.');
    assert.deepEqual(result.structuredContent, { formatted: '', hits: [] });
  });

  test('remember -> flush -> recall finds the memory with source mcp; remembering again is a duplicate', async () => {
    const args = {
      messages: [
        {
          speaker: 'Ana',
          text: 'I am learning to play the cello and practise scales every evening after work.',
        },
      ],
      text: 'Ana plays the cello; she practises scales every evening, and her teacher is called Mrs. Okafor.',
    };
    assert.match(textOf(await client.callTool({ name: 'remember', arguments: args })), /Saved 2 new/);
    assert.match(
      textOf(await client.callTool({ name: 'remember', arguments: args })),
      /Saved 0 new.*2 were already known/,
    );
    await service.writer.runOnce({ flush: true });
    const result = await client.callTool({
      name: 'recall',
      arguments: { query: 'cello practice scales teacher' },
    });
    assert.match(textOf(result), /Past chat memories/);
    assert.match(textOf(result), /cello/);
    const hits = (result.structuredContent as { hits: RetrieveHit[] }).hits;
    assert.ok(hits.length > 0);
    assert.equal(hits[0]!.source, 'mcp');
    assert.match(hits[0]!.speakers, /Ana/);
  });

  test('an unknown bot is an error result naming the code, not a protocol failure', async () => {
    const result = await client.callTool({ name: 'recall', arguments: { bot: 'nobody', query: 'x' } });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /unknown_bot/);
  });

  test('remember with nothing to save is an error result', async () => {
    const result = await client.callTool({ name: 'remember', arguments: {} });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /pass `text` or `messages`/);
  });

  test('the bot resource is listed and reports health and readiness', async () => {
    const { resources } = await client.listResources();
    assert.deepEqual(
      resources.map((r) => r.uri),
      ['memory-pool://bots/mythos'],
    );
    const read = await client.readResource({ uri: 'memory-pool://bots/mythos' });
    const content = read.contents[0] as { text: string };
    assert.deepEqual(
      { ...JSON.parse(content.text), checks: undefined },
      { bot: 'mythos', healthy: true, ready: true, checks: undefined },
    );
  });
});

describe('createMcpServer without a default bot', () => {
  test('a tool call without bot says how to fix it, and no resource is listed', async () => {
    const unreachable = new MemoryPoolClient({ baseUrl: 'http://127.0.0.1:9', retries: 0 });
    const client = await connect(unreachable);
    const result = await client.callTool({ name: 'recall', arguments: { query: 'x' } });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /--bot/);
    assert.deepEqual((await client.listResources()).resources, []);
    const read = await client.readResource({ uri: 'memory-pool://bots/other' });
    assert.equal(JSON.parse((read.contents[0] as { text: string }).text).healthy, false);
    await client.close();
  });
});
