/** @module The MCP server's tools and resource, driven by the SDK's client over an in-memory transport. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MemoryPoolClient } from '../../client/memory-pool-client.js';
import { startTestService, type TestService } from '../../service/test-support/start-test-service.js';
import type { RetrieveHit } from '../../wire/retrieve-request.js';
import { connectInProcess as connect, textOf } from './test-support/mcp-test-client.js';

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
    assert.deepEqual(tools.map((t) => t.name).sort(), ['forget', 'link', 'recall', 'remember']);
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

  test('recall narrows by source and passes the place it is asked from', async () => {
    const query = { query: 'cello practice scales teacher' };
    const ofSources = async (args: Record<string, unknown>) => {
      const result = await client.callTool({ name: 'recall', arguments: { ...query, ...args } });
      assert.notEqual(result.isError, true, textOf(result));
      return (result.structuredContent as { hits: RetrieveHit[] }).hits.map((hit) => hit.source);
    };
    const fromMcp = await ofSources({ sources: ['mcp'], guild_id: 'g1', channel_id: 'c1' });
    assert.ok(fromMcp.length > 0);
    assert.ok(fromMcp.every((source) => source === 'mcp'));
    assert.deepEqual(await ofSources({ sources: ['discord'] }), []);
  });

  test('recall passes max_chars through: the block stays within it, and a bad one is an error', async () => {
    const recall = async (args: Record<string, unknown>) =>
      client.callTool({ name: 'recall', arguments: { query: 'cello practice scales teacher', ...args } });
    const whole = (await recall({})).structuredContent as { formatted: string };
    assert.ok(whole.formatted.length > 120);
    const fitted = (await recall({ max_chars: whole.formatted.length - 1 })).structuredContent as {
      formatted: string;
      hits: RetrieveHit[];
    };
    assert.ok(fitted.formatted.length < whole.formatted.length);
    assert.equal((await recall({ max_chars: 0 })).isError, true);
  });

  test('recall passes now, tz and the window through', async () => {
    const hitsFor = async (args: Record<string, unknown>) => {
      const result = await client.callTool({ name: 'recall', arguments: { query: 'cello scales', ...args } });
      assert.notEqual(result.isError, true, textOf(result));
      return (result.structuredContent as { hits: RetrieveHit[] }).hits;
    };
    assert.ok(
      (await hitsFor({ query: 'the cello scales today', now: Date.now(), tz: 'Asia/Tokyo' })).length > 0,
    );
    // Asked as if a year ago, that "today" holds nothing that was said.
    assert.deepEqual(
      await hitsFor({ query: 'what did we talk about today?', now: Date.now() - 365 * 86_400_000 }),
      [],
    );
    assert.deepEqual(await hitsFor({ time_from: '2001-01-01', time_to: '2001-12-31', tz: 'UTC' }), []);
    const bad = await client.callTool({ name: 'recall', arguments: { query: 'x', tz: 'Mars/Olympus' } });
    assert.equal(bad.isError, true);
  });

  test('forget by the message ids of a recall hit: recall no longer finds it; forgetting again is harmless', async () => {
    const text = 'Ana keeps her spare house key under the blue flowerpot by the back door of the cottage.';
    await client.callTool({ name: 'remember', arguments: { speaker: 'Ana', text } });
    await service.writer.runOnce({ flush: true });
    const recall = async () => {
      const result = await client.callTool({
        name: 'recall',
        arguments: { query: 'spare house key blue flowerpot', limit: 10 },
      });
      return (result.structuredContent as { hits: RetrieveHit[] }).hits;
    };
    const hit = (await recall()).find((h) => h.text.includes('flowerpot'));
    assert.ok(hit, 'remembered first');
    const ids = hit.messageIds.split(',');
    const forgotten = await client.callTool({ name: 'forget', arguments: { message_ids: ids } });
    assert.notEqual(forgotten.isError, true, textOf(forgotten));
    assert.match(textOf(forgotten), new RegExp(`Forgot ${ids.length} message`));
    const counts = forgotten.structuredContent as { messages_forgotten: number; points_deleted: number };
    assert.equal(counts.messages_forgotten, ids.length);
    assert.equal(counts.points_deleted, 1);
    assert.ok((await recall()).every((h) => !h.text.includes('flowerpot')));

    const again = await client.callTool({ name: 'forget', arguments: { message_ids: ids } });
    assert.match(textOf(again), /Nothing to forget/);
    assert.deepEqual(again.structuredContent, {
      points_deleted: 0,
      points_rewritten: 0,
      pending_dropped: 0,
      messages_forgotten: 0,
    });
  });

  test('forget by source removes what came through that interface', async () => {
    const result = await client.callTool({ name: 'forget', arguments: { source: 'mcp' } });
    assert.notEqual(result.isError, true, textOf(result));
    assert.ok((result.structuredContent as { points_deleted: number }).points_deleted > 0);
    const recalled = await client.callTool({
      name: 'recall',
      arguments: { query: 'cello practice scales teacher' },
    });
    assert.deepEqual(recalled.structuredContent, { formatted: '', hits: [] });
  });

  test('forget needs exactly one of message_ids and source', async () => {
    for (const args of [{}, { message_ids: ['x'], source: 'mcp' }]) {
      const result = await client.callTool({ name: 'forget', arguments: args });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /either `message_ids` or `source`/);
      assert.match(textOf(result), /refused \(validation_failed, field message_ids\)/);
    }
  });

  test('an unknown bot is an error result naming the code, not a protocol failure', async () => {
    const result = await client.callTool({ name: 'recall', arguments: { bot: 'nobody', query: 'x' } });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /unknown_bot/);
  });

  test('recall by person reaches the service through the client: an unknown person is refused naming it', async () => {
    const result = await client.callTool({
      name: 'recall',
      arguments: { query: 'x', person: 'p_0000000000000000' },
    });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /refused \(validation_failed, field person\)/);
  });

  test('remember with nothing to save is an error result', async () => {
    const result = await client.callTool({ name: 'remember', arguments: {} });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /pass `text` or `messages`/);
    assert.match(textOf(result), /refused \(validation_failed, field text\)/);
  });

  test('the bot resource is listed and reports health, readiness and the memory stats', async () => {
    const { resources } = await client.listResources();
    assert.deepEqual(
      resources.map((r) => r.uri),
      ['memory-pool://bots/mythos'],
    );
    const read = await client.readResource({ uri: 'memory-pool://bots/mythos' });
    const content = read.contents[0] as { text: string };
    const status = JSON.parse(content.text);
    assert.deepEqual(
      { ...status, checks: undefined, stats: undefined },
      { bot: 'mythos', healthy: true, ready: true, checks: undefined, stats: undefined },
    );
    assert.equal(status.stats.bot, 'mythos');
    assert.equal(status.stats.collection, 'mem_mythos');
    assert.equal(typeof status.stats.points.total, 'number');
    assert.equal(typeof status.stats.messages.pending, 'number');
  });
});

describe('createMcpServer without a default bot', () => {
  test('a tool call without bot says how to fix it, and no resource is listed', async () => {
    const unreachable = new MemoryPoolClient({ baseUrl: 'http://127.0.0.1:9', retries: 0 });
    const client = await connect(unreachable);
    const result = await client.callTool({ name: 'recall', arguments: { query: 'x' } });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /--bot/);
    assert.match(textOf(result), /field bot/);
    assert.deepEqual((await client.listResources()).resources, []);
    const read = await client.readResource({ uri: 'memory-pool://bots/other' });
    assert.equal(JSON.parse((read.contents[0] as { text: string }).text).healthy, false);
    await client.close();
  });
});
