/**
 * @module How long the service's main thread is busy per recall query (issue 37.9): short and 20 kB queries,
 * word-salad (as query-fairness.bench.ts sends) and prose full of dates, asked one after another against the
 * real service in-process (offline embedder, empty bot). The event loop's busy time over a query is work a
 * short query asked meanwhile waits behind; the model's work runs in its worker threads and is not counted.
 * First, before any thread starts, the CPU time (process.cpuUsage: the main thread alone then, so the load
 * does not inflate it) of reading a query's time and topic and of its sparse (word) query, per query.
 * Run: node --import tsx bench/query-main-thread.bench.ts [--queries 30]
 * Measured (issue 37, medians of 3 runs, load 20-23): reading a 20 kB query's time and topic 1.93 → 0.15 CPU ms
 * (words), 6.05 → 1.33 (prose with dates); its word query 2.38 → 0.36 CPU ms (docs/benchmarks.md).
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { encodeQueryTerms } from '../src/parts/sparse-vector.js';
import { tokenizeText } from '../src/parts/tokenize-text.js';
import { resolveRecallTime } from '../src/retrieval/time/resolve-recall-time.js';
import { seededRandom } from '../src/runtime/seeded-random.js';
import { startBenchService } from './support/in-process-service.js';

const { values: args } = parseArgs({ options: { queries: { type: 'string', default: '30' } } });
const QUERIES = Number(args.queries);
const random = seededRandom(7);
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
const WORDS =
  'garden rain harbour lantern piano Lisbon sister storm river bakery train forest music winter'.split(' ');
const SENTENCES = [
  'Yesterday we walked to the harbour and Anna said she missed Lisbon.',
  'On Tuesday the piano teacher called about the recital in May.',
  'I told you last week that my sister moved to Porto 3 years ago.',
  'The storm knocked out the power for a few hours, it was scary!',
  'Do you remember what we discussed about the bakery on 8 May 2023?',
];
let asked = 0;
const KINDS: Readonly<Record<string, () => string>> = {
  short: () => `${pick(WORDS)} ${pick(WORDS)} yesterday ${asked++}`,
  '20 kB words': () =>
    `${Array.from({ length: 3_000 }, () => pick(WORDS))
      .join(' ')
      .slice(0, 20_000 - 8)} q${asked++}`,
  '20 kB prose with dates': () => {
    let text = '';
    while (text.length < 20_000) text += `${pick(SENTENCES)} `;
    return `${text.slice(0, 20_000 - 8)} q${asked++}`;
  },
};

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

/** CPU ms per call of `work` over `texts`, median of 5 passes (the first, warming up, not counted). */
function measureCpu(texts: readonly string[], work: (text: string) => unknown): number {
  const passes: number[] = [];
  for (let pass = 0; pass < 6; pass += 1) {
    const before = process.cpuUsage();
    for (const text of texts) work(text);
    const used = process.cpuUsage(before);
    if (pass > 0) passes.push((used.user + used.system) / 1000 / texts.length);
  }
  return median(passes);
}
for (const [kind, make] of Object.entries(KINDS)) {
  const texts = Array.from({ length: QUERIES }, make);
  const time = measureCpu(texts, (query_text) => resolveRecallTime({ bot: 'b', query_text }, 'Europe/Paris'));
  const words = measureCpu(texts, (text) => encodeQueryTerms(tokenizeText(text)));
  console.log(
    `${kind}: reading its time and topic ${time.toFixed(2)} CPU ms, its word query ${words.toFixed(2)} CPU ms`,
  );
}

const service = await startBenchService({
  bots: { mythos: { selfSpeaker: 'Mythos', collection: 'mem_mythos' } },
});
try {
  // Loads the model in every worker first.
  await Promise.all(
    Array.from({ length: 4 }, () => service.client.retrieve({ bot: 'mythos', query_text: KINDS.short!() })),
  );
  for (const [kind, make] of Object.entries(KINDS)) {
    const busy: number[] = [];
    const wall: number[] = [];
    for (let i = 0; i < QUERIES; i += 1) {
      const query = make();
      const before = performance.eventLoopUtilization();
      const started = performance.now();
      await service.client.retrieve({ bot: 'mythos', query_text: query });
      wall.push(performance.now() - started);
      busy.push(performance.eventLoopUtilization(before).active);
    }
    console.log(
      `${kind}: main thread busy ${median(busy).toFixed(1)} ms per query (median of ${QUERIES}; ` +
        `max ${Math.max(...busy).toFixed(1)}), answered in ${median(wall).toFixed(1)} ms ` +
        `(load ${loadavg()[0]!.toFixed(1)})`,
    );
  }
} finally {
  await service.close();
}
