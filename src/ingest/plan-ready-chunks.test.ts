/** @module Tests for the writer's planning units: a backlog is planned in short units that cut as one pass would. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import type { Journal } from '../journal/journal.js';
import { openSqliteJournal } from '../journal/sqlite/sqlite-journal.js';
import { testBot } from '../config/test-support/test-bot.js';
import { planReadyChunks } from './plan-ready-chunks.js';

const bots = { mythos: testBot('mythos', { chunk: { minChars: 60, maxChars: 100, idleMs: 1_000 } }) };
const NOW = 1_764_547_200_000;

/** Ten conversations of five 40-character messages: two ready chunks each, and a pending remainder. */
async function fillJournal(journal: Journal): Promise<void> {
  for (let c = 0; c < 10; c++) {
    await journal.recordMessages(
      Array.from({ length: 5 }, (_, i) => ({
        bot: 'mythos',
        source: 'discord',
        messageId: `c${c}-${i}`,
        speakerKind: 'user' as const,
        text: `${'x'.repeat(38)}${i}${c}`,
        ts: NOW + i,
        channelId: `c${c}`,
      })),
      NOW,
    );
  }
}

function plannedChunkIds(dir: string): string[] {
  const db = new BetterSqlite3(join(dir, 'journal.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT chunk_id FROM chunks ORDER BY chunk_id').all() as { chunk_id: string }[]).map(
      (r) => r.chunk_id,
    );
  } finally {
    db.close();
  }
}

test('a backlog is planned in units of about maxChunks that together cut exactly what one pass cuts', async () => {
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'plan-units-')));
  const [whole, units] = dirs.map(openSqliteJournal) as [Journal, Journal];
  try {
    await fillJournal(whole);
    await fillJournal(units);
    const once = await planReadyChunks(whole, bots, NOW, false);
    assert.equal(once.more, false);

    const perUnit: number[] = [];
    for (let unit = 0; unit < 20; unit++) {
      const before = (await units.queueDepth()).plannedChunks;
      const result = await planReadyChunks(units, bots, NOW, false, 4);
      perUnit.push((await units.queueDepth()).plannedChunks - before);
      if (!result.more) {
        assert.equal(result.flushAt, once.flushAt, 'the last unit knows when the remainders go idle');
        break;
      }
    }
    assert.ok(perUnit.length >= 5, `planned in ${perUnit.length} units: ${perUnit.join(', ')}`);
    assert.ok(
      perUnit.every((n) => n <= 4),
      `each unit stops at the conversation reaching the limit: ${perUnit.join(', ')}`,
    );
    assert.equal((await whole.queueDepth()).plannedChunks, 20);
    assert.deepEqual(plannedChunkIds(dirs[1]!), plannedChunkIds(dirs[0]!));
    assert.equal((await units.queueDepth()).pendingMessages, (await whole.queueDepth()).pendingMessages);
  } finally {
    await whole.close();
    await units.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
});
