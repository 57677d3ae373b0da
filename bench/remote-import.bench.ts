/**
 * @module The service's own cost with a remote embedder (issue 27): 2,000 generated chat messages sent to
 * /save in windows (the last 10, re-sent after every 2 new, as chat clients do) and stored through an
 * OpenAI-compatible stand-in that answers in 50 ms with 3072-d vectors; beside it, in the same run, on the
 * same embedded store and stand-in, st-qdrant-memory's own save loop (docs: shared st-qdrant-memory.md): per
 * chunk one scroll for its message ids, one embedding call, one duplicate search (limit 1, threshold 0.92) and
 * one upsert, one chunk after another. Rounds alternate which side goes first; medians are printed.
 * The idle flush is 1 s here (30 s by default), so the last chunk's wait does not stand for the service's cost.
 * Run: node --import tsx bench/remote-import.bench.ts [--messages 2000 --rounds 3 --delay-ms 50]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { seededRandom } from '../src/runtime/seeded-random.js';
import { startEmbedderStandIn } from './support/embedder-stand-in.js';
import { startBenchService } from './support/in-process-service.js';
import { runStLoop, type StMessage } from './support/st-save-loop.js';

const { values: args } = parseArgs({
  options: {
    messages: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '3' },
    'delay-ms': { type: 'string', default: '50' },
  },
});
const MESSAGES = Number(args.messages);
const DIMENSIONS = 3072;
const WORDS =
  'lighthouse harbour lantern piano Lisbon sister storm regatta river bakery train forest herbs music'.split(
    ' ',
  );

function generateMessages(count: number): StMessage[] {
  const random = seededRandom(21);
  const start = Date.UTC(2024, 2, 1, 9);
  return Array.from({ length: count }, (_, i) => ({
    id: `m${i}`,
    speaker: i % 2 === 0 ? 'Helen' : 'Mythos',
    text: `${Array.from({ length: 8 + Math.floor(random() * 20) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ')}.`,
    ts: start + i * 60_000,
  }));
}

const standIn = await startEmbedderStandIn(Number(args['delay-ms']), DIMENSIONS);
const service = await startBenchService({
  embedding: {
    provider: 'openai-compatible',
    baseUrl: standIn.baseUrl,
    model: 'text-embedding-3-large',
    dimensions: DIMENSIONS,
  },
  bots: { mythos: { selfSpeaker: 'Mythos', collection: 'mem_mythos', chunk: { idleMs: 1_000 } } },
});
const { client } = service;

/** memory-pool: /save in windows of 10 re-sent every 2 messages, until every message is in a stored chunk. */
async function runMemoryPool(round: number, messages: readonly StMessage[]): Promise<number> {
  const bot = 'mythos';
  const started = performance.now();
  const body = messages.map((m) => ({
    speaker_kind: m.speaker === 'Mythos' ? ('self' as const) : ('user' as const),
    ...(m.speaker === 'Mythos' ? {} : { speaker_name: m.speaker, user_id: 'bench:helen' }),
    text: m.text,
    message_id: `r${round}-${m.id}`,
    ts: m.ts + round * 86_400_000 * 30,
  }));
  for (let end = 2; end <= body.length; end += 2) {
    await client.save({ bot, source: 'bench', messages: body.slice(Math.max(0, end - 10), end) });
  }
  const saved = (performance.now() - started) / 1000;
  while ((await client.stats(bot)).messages.pending > 0) await new Promise((done) => setTimeout(done, 20));
  console.log(`  memory-pool: every /save answered at ${saved.toFixed(2)} s`);
  return (performance.now() - started) / 1000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
try {
  const messages = generateMessages(MESSAGES);
  const pool: number[] = [];
  const st: number[] = [];
  for (let round = 0; round < Number(args.rounds); round += 1) {
    const runSt = async () =>
      st.push(
        await runStLoop(
          { storeUrl: service.storeUrl, embeddingsUrl: `${standIn.baseUrl}/embeddings` },
          `mem_st_${round}`,
          messages,
        ),
      );
    const runPool = async () => pool.push(await runMemoryPool(round, messages));
    for (const run of round % 2 === 0 ? [runPool, runSt] : [runSt, runPool]) await run();
    console.log(
      `round ${round + 1}: memory-pool ${pool.at(-1)!.toFixed(2)} s, st-qdrant-memory's loop ${st.at(-1)!.toFixed(2)} s ` +
        `(load ${loadavg()[0]!.toFixed(1)})`,
    );
  }
  console.log(
    `${MESSAGES} messages, ${DIMENSIONS}-d stand-in answering in ${args['delay-ms']} ms, median of ${args.rounds}: ` +
      `memory-pool ${median(pool).toFixed(2)} s, st-qdrant-memory's save loop ${median(st).toFixed(2)} s: ` +
      `${(median(st) / median(pool)).toFixed(1)}x (load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')})`,
  );
} finally {
  await service.close();
  standIn.close();
}
