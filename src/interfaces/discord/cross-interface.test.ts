/** A memory recorded from Discord is recalled through MCP, and one remembered through MCP is recalled on Discord. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { GENERAL, messagePayload, SAM, startDiscordHarness } from './test-support/discord-harness.js';
import { ask, command } from './test-support/discord-interactions.js';

test('Discord → MCP recall, and MCP remember → /memory recall on Discord', async () => {
  const h = await startDiscordHarness({ channels: [GENERAL] });
  h.answerReplyEdits();
  const mcp = new Client({ name: 'test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${h.service.url}/mcp`)));
  try {
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ content: 'I am learning to sail a small dinghy', author: SAM }),
    );
    await h.flush();
    const recalled = (await mcp.callTool({
      name: 'recall',
      arguments: { query: 'sail dinghy' },
    })) as CallToolResult;
    const hits = (
      recalled.structuredContent as { hits: { text: string; source?: string; channelId?: string }[] }
    ).hits;
    const hit = hits.find((found) => /dinghy/.test(found.text));
    assert.match(hit?.text ?? '', /Sam: I am learning to sail a small dinghy/);
    assert.equal(hit?.source, 'discord');
    assert.equal(hit?.channelId, GENERAL);

    await mcp.callTool({
      name: 'remember',
      arguments: { text: 'Sam said his dinghy is named Osprey', speaker: 'self' },
    });
    await h.flush();
    const { edit } = await ask(
      h,
      command({ user: SAM }, 'recall', [{ name: 'query', type: 3, value: 'dinghy Osprey' }]),
    );
    assert.match(edit?.content ?? '', /Mythos: Sam said his dinghy is named Osprey/);
  } finally {
    await mcp.close();
    await h.close();
  }
});
