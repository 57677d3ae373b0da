/**
 * @module A bot mapped to a chat of Shadota's per-chat fork (`stChatId`) keeps writing the chat's `chatId`
 * after `memory-pool reembed` switched it to a new collection: the fork's recall keeps only points that
 * carry it, and after `--drop-old` it reads the new collection through the old name.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { TEST_DIMENSIONS, testBot } from '../config/test-support/test-bot.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { startTestService, type TestService } from './test-support/start-test-service.js';

const CHAT = 'Seraphina - 2025-05-01@12h30m00s';

describe('per-chat payloads after a reembed switch', () => {
  let service: TestService;
  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'memory-pool-per-chat-'));
    const journal = openSqliteJournal(join(dir, 'service'));
    const embedding = JSON.stringify({ provider: 'hashing', dimensions: TEST_DIMENSIONS });
    await journal.routes.beginReembed('mem_sera', 'mem_sera', 'mem_sera_v2', embedding, 1);
    await journal.routes.switchTo('mem_sera', 'mem_sera_v2', 2);
    service = await startTestService({
      dir,
      journal,
      bots: [testBot('sera', { collection: 'mem_sera', stChatId: CHAT })],
    });
  });
  after(() => service.close());

  test("a write to the switched-to collection carries the chat's chatId", async () => {
    const saved = await service.post('/save', {
      bot: 'sera',
      messages: [
        {
          speaker_kind: 'user',
          speaker_name: 'Helen',
          text: 'We found a map of the northern caves',
          message_id: 'm1',
          ts: 1_767_225_600_000,
        },
        { speaker_kind: 'self', text: 'The caves hold old secrets', message_id: 'm2', ts: 1_767_225_601_000 },
      ],
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
    await service.writer.runOnce({ flush: true });
    const response = await fetch(`${service.storeUrl}/collections/mem_sera_v2/points/scroll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ limit: 10, with_payload: true }),
    });
    const points = ((await response.json()) as { result: { points: { payload: { chatId?: string } }[] } })
      .result.points;
    assert.ok(points.length > 0, 'the memory was written to the switched-to collection');
    assert.deepEqual(
      points.map((point) => point.payload.chatId),
      points.map(() => CHAT),
    );
  });
});
