/**
 * @module The rename pass of issue 33 on the service as `serve` runs it (the embedded store on its thread, the
 * SQLite journal, the chunk writer and the rename runner running on their own): N stored chunks, half of them from
 * one Discord account; that account linked to a person; the time until every one of its chunks is stored under the
 * person's name, and /retrieve's p50 before the link and during the pass. Run: `node --import tsx
 * bench/people.bench.ts [--chunks N] [--rounds R] [--dimensions D]`.
 *
 * Vectors come from the hashing embedder (D dimensions, default 384 as the offline model's), so the figure is
 * memory-pool's own work (pass, writer, store) and not the model's; the store searches with its real indexes,
 * unlike the in-memory test store, whose brute-force search made /retrieve during the pass unmeasurable.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { configSchema } from '../src/config/config-schema.js';
import type { MemoryPoolConfig } from '../src/config/config-types.js';
import { HashingEmbedder } from '../src/embedding/hashing/hashing-embedder.js';
import { createLogger } from '../src/logging/logger.js';
import { startMemoryService } from '../src/service/start-memory-service.js';
import { awaitStoreGraphs } from './support/await-store-graphs.js';

const { values: args } = parseArgs({
  options: {
    chunks: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '1' },
    dimensions: { type: 'string', default: '384' },
  },
});
const CHUNKS = Number(args.chunks);
const DAY = Date.UTC(2026, 10, 2, 9);
const load = () => loadavg()[0]!.toFixed(2);
const p50 = (times: readonly number[]) =>
  [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? Number.NaN;
const median = p50;

/** One round on a fresh folder: what it measured. */
interface Round {
  readonly renameS: number;
  readonly before: number;
  readonly during: number;
  readonly duringCount: number;
  readonly loads: string;
}

async function runRound(): Promise<Round> {
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-people-bench-'));
  const config: MemoryPoolConfig = {
    ...configSchema.parse({
      embedding: { provider: 'hashing', dimensions: Number(args.dimensions) },
      // Each conversation is one short chunk, closed at once (idle 0): N conversations are N chunks.
      bots: { mythos: { selfSpeaker: 'Mythos', collection: 'mem_mythos', chunk: { minChars: 120, maxChars: 200, idleMs: 0 } } },
    }),
    listen: { host: '127.0.0.1', port: 0 },
    store: { kind: 'embedded', path: join(dir, 'qdrant'), host: '127.0.0.1', port: 0 },
    dataDir: join(dir, 'service'),
  };
  const embedder = new HashingEmbedder({ dimensions: Number(args.dimensions) });
  const service = await startMemoryService({ config, embedder, logger: createLogger({ level: 'silent' }) });
  const call = async (path: string, body?: unknown) => {
    const response = await fetch(`${service.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const stats = async () =>
    (await call('/bots/mythos/stats')) as {
      chunks: { planned: number; stored: number };
      renaming?: { chunksLeft: number; accountsWaiting: number };
    };
  try {
    for (let first = 0; first < CHUNKS; first += 200) {
      const messages = Array.from({ length: Math.min(200, CHUNKS - first) }, (_, k) => {
        const i = first + k;
        const who =
          i % 2 === 0
            ? { discord_user_id: '1234', speaker_name: 'anna_d' }
            : { discord_user_id: '99', speaker_name: 'Bob' };
        return [0, 1].map((n) => ({
          message_id: `m${i}-${n}`,
          speaker_kind: n === 0 ? 'user' : 'self',
          text: `conversation ${i}: the lighthouse at the end of pier ${i % 97} was painted ${n === 0 ? 'red' : 'white'}`,
          ts: DAY + i * 10,
          channel_id: `c${i}`,
          ...(n === 0 ? who : {}),
        }));
      }).flat();
      await call('/save', { bot: 'mythos', source: 'discord', messages });
    }
    let started = performance.now();
    while ((await stats()).chunks.stored < CHUNKS) await sleep(250);
    console.log(
      `  stored ${CHUNKS} chunks in ${((performance.now() - started) / 1000).toFixed(1)} s (load ${load()})`,
    );
    await awaitStoreGraphs(service.storeUrl!);

    let asked = 0;
    const retrieveOnce = async () => {
      const t0 = performance.now();
      await call('/retrieve', {
        bot: 'mythos',
        query_text: `which colour was the lighthouse at pier ${asked++ % 97}`,
      });
      return performance.now() - t0;
    };
    const before: number[] = [];
    for (let i = 0; i < 60; i++) before.push(await retrieveOnce());
    const loadBefore = load();

    started = performance.now();
    await call('/bots/mythos/people', { name: 'Anna', accounts: [{ discord_user_id: '1234' }] });
    let passDone = false;
    const during: number[] = [];
    const asking = (async () => {
      while (!passDone) {
        during.push(await retrieveOnce());
        await sleep(5);
      }
    })();
    // The link's rename request is written with it, so `renaming` shows until the last chunk is rewritten.
    while ((await stats()).renaming !== undefined) await sleep(100);
    const renameS = (performance.now() - started) / 1000;
    passDone = true;
    await asking;
    const loadDuring = load();
    const renamed = await countNamed(service.storeUrl!);
    if (renamed !== CHUNKS / 2) throw new Error(`only ${renamed} of ${CHUNKS / 2} chunks carry the name`);
    return {
      renameS,
      before: p50(before),
      during: p50(during),
      duringCount: during.length,
      loads: `${loadBefore} / ${loadDuring}`,
    };
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** How many stored chunks say the person's name, read back through the store's REST API. */
async function countNamed(storeUrl: string): Promise<number> {
  let named = 0;
  let offset: unknown = null;
  do {
    const response = await fetch(`${storeUrl}/collections/mem_mythos/points/scroll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ limit: 1000, with_payload: ['text'], with_vector: false, offset }),
    });
    const page = (await response.json()) as {
      result: { points: { payload: { text: string } }[]; next_page_offset: unknown };
    };
    named += page.result.points.filter((p) => p.payload.text.includes('Anna: ')).length;
    offset = page.result.next_page_offset;
  } while (offset !== null && offset !== undefined);
  return named;
}

const rounds: Round[] = [];
for (let r = 0; r < Number(args.rounds); r++) {
  console.log(`round ${r + 1} (load ${load()})`);
  const round = await runRound();
  rounds.push(round);
  console.log(
    `  link → all ${CHUNKS / 2} of ${CHUNKS} chunks named: ${round.renameS.toFixed(1)} s; /retrieve p50 before ${round.before.toFixed(1)} ms, during ${round.during.toFixed(1)} ms over ${round.duringCount} (x${(round.during / round.before).toFixed(2)}) (load before / after ${round.loads})`,
  );
}
console.log(
  `median of ${rounds.length}: rename ${median(rounds.map((r) => r.renameS)).toFixed(1)} s; /retrieve p50 before ${median(rounds.map((r) => r.before)).toFixed(1)} ms, during ${median(rounds.map((r) => r.during)).toFixed(1)} ms (load now ${load()})`,
);
