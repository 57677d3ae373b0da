/** @module `/mcp` on a running service, driven by the SDK's streamable HTTP client, with and without API keys. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RetrieveHit } from '../../wire/retrieve-request.js';
import { type TestService, startTestService } from '../../service/test-support/start-test-service.js';

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
          {
            name: 'curator',
            key: `${KEY}-f`,
            scopes: ['save', 'retrieve', 'forget'],
            bots: '*',
            sources: '*',
          },
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

  test('forget needs the forget scope: refused as forbidden without it, done with it', async () => {
    const agent = await connect(service.url, { authorization: `Bearer ${KEY}` });
    const curator = await connect(service.url, { authorization: `Bearer ${KEY}-f` });
    try {
      const text = 'Ben hides the biscuit tin behind the flour jars on the top shelf of the pantry.';
      await agent.callTool({ name: 'remember', arguments: { speaker: 'Ben', text } });
      await service.writer.runOnce({ flush: true });
      const recall = async () =>
        (
          (
            await curator.callTool({
              name: 'recall',
              arguments: { query: 'biscuit tin flour jars pantry', limit: 10 },
            })
          ).structuredContent as { hits: RetrieveHit[] }
        ).hits.filter((hit) => hit.text.includes('biscuit tin'));
      const [hit] = await recall();
      assert.ok(hit, 'remembered first');
      const ids = hit.messageIds.split(',');

      const refused = await agent.callTool({ name: 'forget', arguments: { message_ids: ids } });
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /forbidden/);
      assert.equal((await recall()).length, 1, 'a refused forget removes nothing');

      const done = await curator.callTool({ name: 'forget', arguments: { message_ids: ids } });
      assert.notEqual(done.isError, true, textOf(done));
      assert.equal((done.structuredContent as { messages_forgotten: number }).messages_forgotten, 1);
      assert.deepEqual(await recall(), []);
    } finally {
      await agent.close();
      await curator.close();
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

  test('a call nested 5,000 levels deep, or not JSON, is a JSON-RPC parse error (400)', async () => {
    const post = (body: string) =>
      fetch(`${service.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${KEY}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body,
      });
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const tooDeep = await post(
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"recall","arguments":{"query":"x","extra":${deep}}}}`,
    );
    assert.equal(tooDeep.status, 400);
    const answer = (await tooDeep.json()) as { error: { code: number; message: string } };
    assert.equal(answer.error.code, -32700);
    assert.match(answer.error.message, /more than 64 levels deep/);
    const broken = await post('{"jsonrpc":"2.0",');
    assert.equal(broken.status, 400);
    assert.equal(((await broken.json()) as { error: { code: number } }).error.code, -32700);
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
