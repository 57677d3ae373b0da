/**
 * A memory recorded from Discord is recalled through MCP and by SillyTavern's st-qdrant-memory (its own calls,
 * in a browser tab), and one remembered through MCP or written by the extension is recalled on Discord.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { HashingEmbedder } from '../../../src/embedding/hashing/hashing-embedder.js';
import { skipWithoutChromium } from '../../../src/runtime/test-support/debian-chromium.js';
import { TEST_DIMENSIONS } from '../../../src/config/test-support/test-bot.js';
import {
  type DiscordHarness,
  GENERAL,
  messagePayload,
  newMessageId,
  SAM,
  startDiscordHarness,
} from '../../../src/interfaces/discord/test-support/discord-harness.js';
import { ask, command } from '../../../src/interfaces/discord/test-support/discord-interactions.js';
import { openSillyTavernTab, type SillyTavernTab } from './sillytavern-tab.js';

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

describe('Discord and SillyTavern (st-qdrant-memory in a browser tab) share one collection', {
  skip: skipWithoutChromium,
}, () => {
  const embedder = new HashingEmbedder({ dimensions: TEST_DIMENSIONS });
  const embed = async (text: string) => Array.from((await embedder.embed([text]))[0]!);
  let h: DiscordHarness;
  let sillyTavern: SillyTavernTab;
  before(async () => {
    h = await startDiscordHarness({ channels: [GENERAL] });
    h.answerReplyEdits();
    sillyTavern = await openSillyTavernTab(h.service.storeUrl!, 'mem_mythos');
  });
  after(async () => {
    await sillyTavern?.close();
    await h?.close();
  });

  test("a message recorded on Discord is in the extension's own recall block", async () => {
    const id = newMessageId();
    await h.send(
      'MESSAGE_CREATE',
      messagePayload({ id, content: 'I keep three hens called Mabel, Dot and Queenie in the garden' }),
    );
    await h.flush();
    const recalled = await sillyTavern.recall(await embed('three hens Mabel Dot Queenie garden'));
    assert.match(
      recalled.block,
      /^\n\[Past chat memories\]\n\n• Conversation \(Helen\): "\[\d{4}-\d{2}-\d{2}\] Helen: I keep three hens called Mabel, Dot and Queenie in the garden" \(score: \d+%\)/,
    );
    // The extension leaves out what is still in the chat: the Discord id is what it compares.
    assert.equal((await sillyTavern.recall(await embed('three hens Mabel'), [id])).block, '');
  });

  test('a chunk the extension wrote is recalled by /memory recall on Discord and by the MCP tool', async () => {
    const text =
      '[2026-11-20]\nHelen: My grandmother taught me to bake rye bread\nMythos: Rye bread, warm from the oven!';
    const saved = await sillyTavern.save({
      id: '7d1f0a52-3c4e-4b8a-9f60-1a2b3c4d5e6f',
      vector: await embed(text),
      text,
      speakers: ['Helen', 'Mythos'],
      messageIds: ['Mythos_1763640000000_4', 'Mythos_1763640060000_5'],
      timestamp: 1763640000000,
    });
    assert.equal(saved, true);
    const { edit } = await ask(
      h,
      command({ user: SAM }, 'recall', [{ name: 'query', type: 3, value: 'grandmother rye bread' }]),
    );
    assert.match(
      edit?.content ?? '',
      /Conversation \(Helen, Mythos\): "\[2026-11-20\] Helen: My grandmother taught me to bake rye bread Mythos: Rye bread/,
    );

    const mcp = new Client({ name: 'test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${h.service.url}/mcp`)));
    try {
      const recalled = (await mcp.callTool({
        name: 'recall',
        arguments: { query: 'grandmother rye bread' },
      })) as CallToolResult;
      const hits = (recalled.structuredContent as { hits: { id: string; text: string }[] }).hits;
      assert.equal(
        hits.find((hit) => /rye bread/.test(hit.text))?.id,
        '7d1f0a52-3c4e-4b8a-9f60-1a2b3c4d5e6f',
      );
    } finally {
      await mcp.close();
    }
  });
});
