/**
 * @module Benchmark of `memory-pool import sillytavern`: 10,000 generated SillyTavern messages (20 chats of
 * 500, dated over weeks) imported through the real command into the embedded store (run alone, as
 * `memory-pool qdrant` would serve it) with the offline embedder and the product's chunk sizes. Each round
 * imports into a fresh store and then runs the import again (which must add nothing); it prints both times per
 * round and their medians. The progress bar is drawn when stderr is a terminal. `--embedder hashing` leaves
 * the model out, so what is left is the import's own cost (reading, checks, journal, planning, store writes).
 * Run: node --import tsx bench/import.bench.ts [--messages 10000 --rounds 1 --embedder offline|distilled|hashing --workers N]
 *
 * Measured (2-core machine shared with six other engineers' jobs): offline embedder, 10,000 messages, 1 round:
 * first import 1,377.8 s (7 messages/s, 1,116 chunks), second 0.21 s, at load average median 14 (2.8 to 22);
 * the lead may re-run it on a quiet machine. 500 messages, HEAD before and after the offline pool shared one
 * call's texts over its workers, interleaved, 3 rounds at load 2 to 4: median 33.5 s vs 27.8 s (1.2x).
 * Hashing embedder, 10,000 messages: 26.8 s (median of 3, load 21 to 25).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runImport } from '../src/cli/commands/import-command.js';
import { startQdrantServer } from '../src/qdrant-server/http/server.js';
import { seededRandom } from '../src/runtime/seeded-random.js';

const { values: args } = parseArgs({
  options: {
    messages: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '1' },
    workers: { type: 'string' },
    embedder: { type: 'string', default: 'offline' },
  },
});
const EMBEDDING =
  args.embedder === 'hashing'
    ? { provider: 'hashing', dimensions: 512 }
    : args.embedder === 'distilled'
      ? { provider: 'distilled' }
      : { provider: 'offline', ...(args.workers === undefined ? {} : { workers: Number(args.workers) }) };
const MESSAGES = Number(args.messages);
const ROUNDS = Number(args.rounds);
const PER_CHAT = 500;
const WORDS =
  'lighthouse harbour lantern piano Lisbon sister storm regatta river bakery train forest herbs music school ' +
  'morning evening secret party boat sail garden letter winter summer market bread coffee tide moon';

/** Writes `count` messages as SillyTavern chat files under `<dir>/chats/Mythos/`; returns that folder. */
function writeChats(dir: string, count: number): string {
  const folder = join(dir, 'chats', 'Mythos');
  mkdirSync(folder, { recursive: true });
  const random = seededRandom(13);
  const words = WORDS.split(' ');
  const sentence = () =>
    Array.from(
      { length: 8 + Math.floor(random() * 20) },
      () => words[Math.floor(random() * words.length)],
    ).join(' ');
  let ts = Date.UTC(2024, 0, 1, 9);
  for (let chat = 0; chat * PER_CHAT < count; chat += 1) {
    const lines = [
      JSON.stringify({
        user_name: 'Helen',
        character_name: 'Mythos',
        create_date: new Date(ts).toISOString(),
        chat_metadata: {},
      }),
    ];
    for (let i = 0; i < Math.min(PER_CHAT, count - chat * PER_CHAT); i += 1) {
      // Mostly a minute or two apart, sometimes the next evening: chunks are cut by size, pauses and days.
      ts += random() < 0.02 ? 20 * 3_600_000 : 30_000 + Math.floor(random() * 120_000);
      const isUser = i % 2 === 0;
      lines.push(
        JSON.stringify({
          name: isUser ? 'Helen' : 'Mythos',
          is_user: isUser,
          is_system: false,
          send_date: new Date(ts).toISOString(),
          mes: `${sentence()}.`,
          extra: {},
        }),
      );
    }
    writeFileSync(
      join(folder, `Mythos - chat ${String(chat).padStart(2, '0')}.jsonl`),
      `${lines.join('\n')}\n`,
    );
  }
  return folder;
}

async function runRound(): Promise<{ first: number; second: number; firstOut: string; secondOut: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-import-bench-'));
  const store = await startQdrantServer({ dataDir: join(dir, 'qdrant'), port: 0 });
  try {
    const chats = writeChats(dir, MESSAGES);
    const config = join(dir, 'memory-pool.yaml');
    writeFileSync(
      config,
      JSON.stringify({
        dataDir: join(dir, 'service'),
        store: { embedded: { path: join(dir, 'qdrant'), port: store.port } },
        embedding: EMBEDDING,
        bots: { mythos: { selfSpeaker: 'Mythos', collection: 'mem_mythos' } },
      }),
    );
    const timed = async () => {
      let out = '';
      const started = performance.now();
      const code = await runImport(
        'sillytavern',
        [chats],
        { bot: 'mythos', config },
        {
          out: (text) => {
            out += text;
          },
          err: (text) => process.stderr.write(text),
          isTTY: process.stderr.isTTY === true,
        },
      );
      if (code !== 0) throw new Error(`import failed (exit ${code}): ${out}`);
      return { seconds: (performance.now() - started) / 1000, out };
    };
    const first = await timed();
    const second = await timed();
    return { first: first.seconds, second: second.seconds, firstOut: first.out, secondOut: second.out };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const firsts: number[] = [];
const seconds: number[] = [];
for (let round = 1; round <= ROUNDS; round += 1) {
  const result = await runRound();
  firsts.push(result.first);
  seconds.push(result.second);
  process.stdout.write(
    `round ${round}: first import ${result.first.toFixed(1)} s (${(MESSAGES / result.first).toFixed(0)} messages/s), second ${result.second.toFixed(2)} s\n`,
  );
  if (round === 1)
    process.stdout.write(
      `  first:  ${result.firstOut.trim().split('\n').join('\n          ')}\n  second: ${result.secondOut.trim().split('\n').join('\n          ')}\n`,
    );
}
process.stdout.write(
  `${MESSAGES} SillyTavern messages, ${args.embedder} embedder, median of ${ROUNDS}: first import ${median(firsts).toFixed(1)} s ` +
    `(${(MESSAGES / median(firsts)).toFixed(0)} messages/s), second run ${median(seconds).toFixed(2)} s ` +
    `(${(median(firsts) / median(seconds)).toFixed(0)}x faster, adds nothing)\n`,
);
