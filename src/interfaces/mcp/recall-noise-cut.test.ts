/** @module MCP `recall` passes `noise_cut` through, on a conversation big enough for the noise cut to apply. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MemoryPoolClient } from '../../client/memory-pool-client.js';
import { testBot } from '../../config/test-support/test-bot.js';
import {
  HELEN_MESSAGES,
  HELEN_NEVER_DISCUSSED,
  HELEN_REAL,
  HELEN_RETRIEVE,
} from '../../retrieval/noise/test-support/helen-week.js';
import { startTestService, type TestService } from '../../service/test-support/start-test-service.js';
import type { RetrieveHit } from '../../wire/retrieve-request.js';
import { connectInProcess } from './test-support/mcp-test-client.js';

describe('MCP recall and the noise cut', () => {
  let service: TestService;
  let client: Client;
  before(async () => {
    service = await startTestService({
      bots: [testBot('mythos', { retrieve: { ...HELEN_RETRIEVE, noiseCut: { share: 0.12, score: 0.6 } } })],
    });
    const saved = await service.post('/save', { bot: 'mythos', source: 'mcp', messages: HELEN_MESSAGES });
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    await service.writer.runOnce({ flush: true });
    client = await connectInProcess(new MemoryPoolClient({ baseUrl: service.url }), 'mythos');
  });
  after(async () => {
    await client.close();
    await service.close();
  });

  const recall = async (args: Record<string, unknown>) => {
    const result = (await client.callTool({ name: 'recall', arguments: args })) as CallToolResult;
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    const hits = (result.structuredContent as { hits?: RetrieveHit[] } | undefined)?.hits ?? [];
    return { isError: result.isError === true, text, hits };
  };

  test("at the bot's default a never-discussed question recalls nothing; a real one keeps its answer", async () => {
    for (const query of HELEN_NEVER_DISCUSSED) {
      assert.deepEqual(
        await recall({ query }),
        { isError: false, text: 'No memories found.', hits: [] },
        query,
      );
    }
    const { question, evidence } = HELEN_REAL[0]!;
    const { hits } = await recall({ query: question });
    assert.ok(
      hits.some((hit) => hit.messageIds.split(',').includes(evidence)),
      question,
    );
  });

  test('noise_cut sets the share for one recall: 0 fills limit as before, 1 cuts only what every word is', async () => {
    const query = HELEN_NEVER_DISCUSSED[0];
    const { hits, text } = await recall({ query, noise_cut: 0 });
    assert.equal(hits.length, 5);
    assert.match(text, /Past chat memories/);
    // A share of 1 is reached only when no word of the question is held; "Helen" is.
    assert.equal((await recall({ query, noise_cut: 1 })).hits.length, 5);
  });

  test('a share outside 0-1 is an error naming noise_cut', async () => {
    for (const noise_cut of [-0.1, 1.5]) {
      const answer = await recall({ query: HELEN_REAL[0]!.question, noise_cut });
      assert.equal(answer.isError, true, JSON.stringify(noise_cut));
      assert.match(answer.text, /noise_cut/);
    }
  });
});
