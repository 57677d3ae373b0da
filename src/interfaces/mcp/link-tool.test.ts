/** @module The MCP `link` tool, through `/mcp` (the caller's key vouches) and through the HTTP client backend. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MemoryPoolClient } from '../../client/memory-pool-client.js';
import { startTestService, type TestService } from '../../service/test-support/start-test-service.js';
import { connectInProcess, connectOverHttp, textOf } from './test-support/mcp-test-client.js';

const KEY = 'mcp-link-key-1234567890abcdefgh';
const ADMIN = `${KEY}-admin`;
describe('MCP link through /mcp', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({
      config: {
        apiKeys: [
          {
            name: 'agent',
            key: KEY,
            scopes: ['save', 'retrieve'],
            bots: '*',
            sources: ['hermes'],
            source: 'hermes',
          },
          { name: 'mcp', key: `${KEY}-m`, scopes: ['save'], bots: '*', sources: ['mcp'], source: 'mcp' },
          { name: 'reader', key: `${KEY}-r`, scopes: ['retrieve'], bots: '*', sources: '*' },
          { name: 'owner', key: ADMIN, scopes: ['admin'], bots: '*', sources: '*' },
        ],
      },
    });
  });
  after(() => service.close());

  test('a code asked for one account, redeemed by another, makes them one person', async () => {
    const client = await connectOverHttp(service.url, KEY);
    try {
      const given = await client.callTool({ name: 'link', arguments: { user_id: 'telegram:5678' } });
      assert.equal(given.isError, undefined, textOf(given));
      const { code } = given.structuredContent as { code: string };
      assert.match(textOf(given), new RegExp(`^Link code: ${code} \\(one use`));
      const linked = await client.callTool({ name: 'link', arguments: { discord_user_id: '1234', code } });
      assert.match(
        textOf(linked),
        /^Linked: this account and the one that asked for the code are now one person/,
      );
    } finally {
      await client.close();
    }
    const listed = await fetch(`${service.url}/bots/mythos/people`, {
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    const { people } = (await listed.json()) as { people: { accounts: unknown[] }[] };
    const accounts = people.map((p) => p.accounts.map((a) => JSON.stringify(a)).sort());
    assert.deepEqual(accounts, [['{"discord_user_id":"1234"}', '{"user_id":"telegram:5678"}']]);
  });

  test('a key that may not save cannot vouch for an account: refused, no code', async () => {
    const client = await connectOverHttp(service.url, `${KEY}-r`);
    try {
      const refused = await client.callTool({ name: 'link', arguments: { user_id: 'telegram:1' } });
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /^memory-pool refused \(forbidden/);
      assert.equal(refused.structuredContent, undefined);
    } finally {
      await client.close();
    }
  });

  test('a key of a source that sees no platform (mcp) vouches for nobody: refused, no code', async () => {
    const client = await connectOverHttp(service.url, `${KEY}-m`);
    try {
      for (const args of [{ user_id: 'telegram:5678' }, { discord_user_id: '1234' }]) {
        const refused = await client.callTool({ name: 'link', arguments: args });
        assert.equal(refused.isError, true);
        assert.match(textOf(refused), /^memory-pool refused \(forbidden.*may not vouch for the account/s);
        assert.equal(refused.structuredContent, undefined);
      }
    } finally {
      await client.close();
    }
  });

  test('an account must be exactly one of the three: the refusal names the field', async () => {
    const client = await connectOverHttp(service.url, KEY);
    try {
      for (const args of [{}, { user_id: 'telegram:1', discord_user_id: '1' }]) {
        const refused = await client.callTool({ name: 'link', arguments: args });
        assert.match(textOf(refused), /^memory-pool refused \(validation_failed, field account\)/);
      }
    } finally {
      await client.close();
    }
  });
});

describe('MCP link over the HTTP client (memory-pool mcp)', () => {
  let service: TestService;
  let client: Client;
  before(async () => {
    service = await startTestService();
    client = await connectInProcess(new MemoryPoolClient({ baseUrl: service.url }), 'mythos');
  });
  after(async () => {
    await client.close();
    await service.close();
  });

  test('redeeming your own code, or a used one, says which', async () => {
    const given = await client.callTool({ name: 'link', arguments: { user_id: 'slack:U1' } });
    const { code } = given.structuredContent as { code: string };
    const own = await client.callTool({ name: 'link', arguments: { user_id: 'slack:U1', code } });
    assert.match(textOf(own), /field code\): code: the code was asked for by this same account/);
    await client.callTool({ name: 'link', arguments: { user_id: 'telegram:2', code } });
    const used = await client.callTool({ name: 'link', arguments: { user_id: 'telegram:3', code } });
    assert.match(textOf(used), /the code was already used/);
  });
});
