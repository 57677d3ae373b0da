/** @module `/mcp` on a running service, driven by the SDK's streamable HTTP client, with and without API keys. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RetrieveHit } from '../../api/retrieve-request.js';
import { type TestService, startTestService } from '../../server/test-support/start-test-service.js';

const KEY = 'mcp-key-1234567890abcdefghij';

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }),
  );
  return client;
}

const textOf = (result: unknown): string => {
  const first = (result as CallToolResult).content[0];
  return first?.type === 'text' ? first.text : '';
};

describe('/mcp over streamable HTTP', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({
      config: {
        apiKeys: [
          { name: 'agent', key: KEY, scopes: ['save', 'retrieve'], bots: '*', sources: '*' },
          { name: 'reader', key: `${KEY}-r`, scopes: ['retrieve'], bots: '*', sources: '*' },
        ],
      },
    });
  });
  after(() => service.close());

  test('remember -> flush -> recall round trip; the hit has source mcp', async () => {
    const client = await connect(service.url, { authorization: `Bearer ${KEY}` });
    try {
      const saved = await client.callTool({
        name: 'remember',
        arguments: {
          speaker: 'Ben',
          text: 'Ben is allergic to peanuts and always asks restaurants about their sauces first.',
        },
      });
      assert.match(textOf(saved), /Saved 1 new/);
      await service.writer.runOnce({ flush: true });
      const recalled = await client.callTool({
        name: 'recall',
        arguments: { query: 'peanut allergy restaurants' },
      });
      assert.match(textOf(recalled), /peanuts/);
      const hits = (recalled.structuredContent as { hits: RetrieveHit[] }).hits;
      assert.equal(hits[0]?.source, 'mcp');
    } finally {
      await client.close();
    }
  });

  test('GET and DELETE answer 405: the stateless server has no stream to open and no session to end', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${service.url}/mcp`, {
        method,
        headers: { authorization: `Bearer ${KEY}` },
      });
      assert.equal(response.status, 405);
      assert.equal(response.headers.get('allow'), 'POST');
    }
  });

  test('without a key the connection is refused with 401', async () => {
    await assert.rejects(connect(service.url), /401|unauthorized/i);
  });

  test("a key's scopes apply to the tools: a retrieve-only key cannot remember", async () => {
    const client = await connect(service.url, { authorization: `Bearer ${KEY}-r` });
    try {
      const result = await client.callTool({
        name: 'remember',
        arguments: { text: 'this must not be saved' },
      });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /forbidden/);
    } finally {
      await client.close();
    }
  });
});
