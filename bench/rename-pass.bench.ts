/**
 * @module The rename pass alone (issue 33): a SQLite journal with N stored chunks of two messages, every other one
 * from Discord user 1234 (one in N with `--users N`), that account linked, and the time runRenamePass takes to find
 * its chunks and queue their rewrite (no writer, no store). With `--persona`, every chunk is SillyTavern history
 * instead (no user id, one of 50 persona names) and the persona linked is one of them: the pass reads every message
 * without a user id of the bot to find that persona's.
 * Run: `node --import tsx bench/rename-pass.bench.ts [--chunks N] [--users N] [--persona]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteJournal } from '../src/journal/sqlite/sqlite-journal.js';
import { runRenamePass } from '../src/people/run-rename-pass.js';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
};
const CHUNKS = arg('--chunks', 10_000);
// The chunks' people: 1234 (the account linked) writes one chunk in USERS.
const USERS = arg('--users', 2);
const PERSONA = process.argv.includes('--persona');
const SOURCE = PERSONA ? 'sillytavern' : 'discord';
const dir = mkdtempSync(join(tmpdir(), 'memory-pool-rename-bench-'));
const journal = openSqliteJournal(dir);
const bot = 'mythos';
try {
  for (let first = 0; first < CHUNKS; first += 500) {
    const messages = [];
    for (let i = first; i < Math.min(CHUNKS, first + 500); i++) {
      const base = { bot, source: SOURCE, ts: i, channelId: `c${i}` };
      messages.push({
        ...base,
        messageId: `m${i}-0`,
        speakerKind: 'user' as const,
        text: `conversation ${i}`,
        ...(PERSONA ? { speakerName: `persona${i % 50}` } : { userId: i % USERS === 0 ? '1234' : `u${i % USERS}` }),
      });
      messages.push({ ...base, messageId: `m${i}-1`, speakerKind: 'self' as const, text: `reply ${i}` });
    }
    await journal.recordMessages(messages, 1);
  }
  await journal.transaction(async (tx) => {
    for (let i = 0; i < CHUNKS; i++) {
      const chunk = { chunkId: `ch${i}`, bot, collection: 'mem_mythos', source: SOURCE };
      await tx.chunks.planChunk({ ...chunk, messageIds: [`m${i}-0`, `m${i}-1`] }, 1);
      await tx.chunks.markChunkStored(chunk.chunkId, 0, 2);
    }
  });
  await journal.people.create(
    bot,
    {
      id: 'p1',
      name: 'Anna',
      accounts: [PERSONA ? { kind: 'persona', value: 'persona7' } : { kind: 'user', value: 'discord:1234' }],
    },
    3,
  );
  const started = performance.now();
  const result = await runRenamePass(journal, bot, { holder: 'bench', leaseMs: 15_000 });
  const queued = result === 'busy' ? 'none (busy)' : String(result.chunks);
  console.log(
    `rename pass over ${CHUNKS} chunks${PERSONA ? ' (SillyTavern history, a persona linked)' : ` of ${USERS} users`}: queued ${queued} in ${(performance.now() - started).toFixed(0)} ms (load ${loadavg()[0]!.toFixed(2)})`,
  );
} finally {
  await journal.close();
  rmSync(dir, { recursive: true, force: true });
}
