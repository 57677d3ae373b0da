/** @module One memory, many doors: a conversation saved through one interface is recalled through another. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RetrieveHit } from '../../../src/wire/retrieve-request.js';
import { MemoryPoolClient } from '../../../src/client/memory-pool-client.js';
import { type TestService, startTestService } from '../../../src/service/test-support/start-test-service.js';
import { testBot } from '../../../src/config/test-support/test-bot.js';
import { deriveRememberMessageId } from '../../../src/interfaces/mcp/remember-message-id.js';

const runFile = promisify(execFile);
const HERMES_TURN = fileURLToPath(new URL('./hermes_turn.py', import.meta.url));
const BOT = 'mythos';

/** Runs the Python driver of the real Hermes plugin and returns what it printed. */
async function runHermes<T>(mode: 'sync' | 'prefetch', args: Record<string, unknown>): Promise<T> {
  const { stdout } = await runFile('python3', [HERMES_TURN, mode, JSON.stringify(args)], {
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    timeout: 10_000,
  });
  return JSON.parse(stdout) as T;
}

/** The hit holding `messageId`, from a recall that may also return other memories. */
function hitHolding(hits: readonly RetrieveHit[], messageId: string): RetrieveHit {
  const hit = hits.find((h) => h.messageIds.split(',').includes(messageId));
  assert.ok(hit, `no hit holds ${messageId}; got ${JSON.stringify(hits.map((h) => h.messageIds))}`);
  return hit;
}

describe('cross-interface recall through one service', () => {
  let service: TestService;
  let client: MemoryPoolClient;
  let mcp: Client;
  const flush = () => service.writer.runOnce({ flush: true });

  before(async () => {
    // Wide chunks, so each short conversation below becomes one chunk when flushed.
    service = await startTestService({
      bots: [testBot(BOT, { chunk: { minChars: 120, maxChars: 1500, idleMs: 60_000 } })],
    });
    client = new MemoryPoolClient({ baseUrl: service.url });
    mcp = new Client({ name: 'cross-interface-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`)));
  });
  after(async () => {
    await mcp.close();
    await service.close();
  });

  test('a Discord window saved by the TypeScript client is recalled through MCP', async () => {
    const where = { guild_id: 'guild-7', channel_id: 'chan-42' };
    const saved = await client.save({
      bot: BOT,
      source: 'discord',
      messages: [
        {
          speaker_kind: 'user',
          speaker_name: 'Helen',
          discord_user_id: '705512345678901234',
          message_id: '1300000000000000001',
          text: 'My grandfather built a wooden sailboat named Albatross in his barn.',
          ...where,
        },
        {
          speaker_kind: 'self',
          message_id: '1300000000000000002',
          text: 'A sailboat called Albatross! Did he ever sail it on the lake?',
          ...where,
        },
      ],
    });
    assert.equal(saved.accepted, 2);
    await flush();

    const result = (await mcp.callTool({
      name: 'recall',
      arguments: { query: 'grandfather wooden sailboat Albatross', ...where },
    })) as CallToolResult;
    assert.notEqual(result.isError, true);
    const hit = hitHolding((result.structuredContent as { hits: RetrieveHit[] }).hits, '1300000000000000001');
    assert.equal(hit.source, 'discord');
    assert.equal(hit.messageIds, '1300000000000000001,1300000000000000002');
    assert.equal(hit.speakers, 'Helen, Mythos');
    assert.deepEqual([hit.guildId, hit.channelId], ['guild-7', 'chan-42']);
    assert.match(hit.text, /^\[\d{4}-\d{2}-\d{2}\]\nHelen: My grandfather built a wooden sailboat/);
    assert.match(hit.text, /\nMythos: A sailboat called Albatross!/);
    const first = result.content[0];
    assert.match(first?.type === 'text' ? first.text : '', /Past chat memories[\s\S]*Albatross/);
  });

  test('an MCP remember is recalled by the TypeScript client', async () => {
    const text = 'Ana collects antique brass compasses and keeps them in a velvet-lined drawer.';
    const saved = (await mcp.callTool({
      name: 'remember',
      arguments: { speaker: 'Ana', text },
    })) as CallToolResult;
    assert.notEqual(saved.isError, true);
    await flush();

    const { hits } = await client.retrieve({ bot: BOT, query_text: 'antique brass compasses drawer' });
    const hit = hitHolding(hits, deriveRememberMessageId(text, 'Ana'));
    assert.equal(hit.source, 'mcp');
    assert.equal(hit.speakers, 'Ana');
    assert.ok(hit.text.endsWith(`\nAna: ${text}`), hit.text);
  });

  test('a Hermes turn (the real plugin, in Python) is recalled by the TypeScript client', async () => {
    const turn = {
      url: service.url,
      bot: BOT,
      session_id: 'hermes-session-1',
      turn: 1,
      chat_id: 'tg-chat-9',
      user_id: '42',
      user_name: 'Ada',
      user_text: 'I am training for a marathon in Kyoto and run along the river every dawn.',
      agent_text: 'Kyoto at dawn must be beautiful; how many kilometres do you run by the river?',
    };
    const sent = await runHermes<{
      user_message_id: string;
      agent_message_id: string;
      responses: { accepted?: number }[];
    }>('sync', turn);
    assert.equal(sent.responses.at(-1)?.accepted, 2, JSON.stringify(sent.responses));
    await flush();

    const { hits } = await client.retrieve({ bot: BOT, query_text: 'marathon Kyoto river dawn' });
    const hit = hitHolding(hits, sent.user_message_id);
    assert.equal(hit.source, 'hermes');
    assert.equal(hit.messageIds, `${sent.user_message_id},${sent.agent_message_id}`);
    assert.match(sent.user_message_id, /^hermes:[0-9a-f]{40}$/);
    assert.equal(hit.speakers, 'Ada, Mythos');
    assert.equal(hit.channelId, 'tg-chat-9');
    assert.match(hit.text, /^\[\d{4}-\d{2}-\d{2}\]\n/);
    assert.ok(hit.text.endsWith(`\nAda: ${turn.user_text}\nMythos: ${turn.agent_text}`), hit.text);
  });

  test("the TypeScript client's save reaches the Hermes plugin's prefetch block", async () => {
    const text = 'Bruno grows purple carrots and giant pumpkins in the allotment behind the station.';
    await client.save({
      bot: BOT,
      source: 'api',
      messages: [
        { speaker_kind: 'user', speaker_name: 'Bruno', message_id: 'api-1', text },
        {
          speaker_kind: 'self',
          message_id: 'api-2',
          text: 'Purple carrots and giant pumpkins: your allotment sounds like a fairground.',
        },
      ],
    });
    await flush();

    const { formatted } = await runHermes<{ formatted: string }>('prefetch', {
      url: service.url,
      bot: BOT,
      session_id: 'hermes-session-2',
      query: 'purple carrots pumpkins allotment',
    });
    assert.match(formatted, /\[Past chat memories\][\s\S]*Conversation \(Bruno, Mythos\)/);
    assert.ok(formatted.includes(`Bruno: ${text}`), formatted);
    assert.match(formatted, /Mythos: Purple carrots and giant pumpkins/);
  });
});
