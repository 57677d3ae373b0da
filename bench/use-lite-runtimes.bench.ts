/**
 * @module USE-lite's cost per text on ONNX Runtime against TensorFlow.js (WASM), one worker thread each, in one
 * process: chat texts (two lines, as a stored message's part) and full windows (128 tokens, as a long chunk's
 * window) as bulk jobs, and a short recall query as an urgent job on an idle worker. The two runtimes are asked in alternation, text by text, so a shared
 * machine's load falls on both alike.
 * Run: node --import tsx bench/use-lite-runtimes.bench.ts [--texts 200] [--queries 150]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { OfflineModelClient } from '../src/embedding/offline/offline-model-client.js';

const { values: args } = parseArgs({
  options: { texts: { type: 'string', default: '200' }, queries: { type: 'string', default: '150' } },
});
const RUNTIMES = ['onnxruntime', 'tfjs'] as const;
const clients = RUNTIMES.map((runtime) => new OfflineModelClient({ workers: 1, runtime }));
for (const client of clients) await client.embed(['load the model'], false); // not counted

const PEOPLE = ['Anna', 'Ben', 'Chloe', 'Dev'];
const TOPICS = ['the harbour', 'the marathon', 'Lisbon', 'the garden', 'the night train', 'cardamom buns'];
/** Two chat lines of ~25 words each, varied so no two texts are alike. */
function chatText(i: number): string {
  const [a, b] = [PEOPLE[i % 4]!, PEOPLE[(i + 1) % 4]!];
  const topic = TOPICS[i % TOPICS.length]!;
  return (
    `${a}: we went back to ${topic} again today (${i}), the rain kept on but the cafe by the water was open late.\n` +
    `${b}: did you finally try what they keep talking about there? I want the whole story, start to finish.`
  );
}

const median = (values: readonly number[]) =>
  [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
async function timeEach(count: number, run: (client: OfflineModelClient, i: number) => Promise<unknown>) {
  const times = RUNTIMES.map((): number[] => []);
  for (let i = 0; i < count; i++) {
    const order = i % 2 === 0 ? [0, 1] : [1, 0];
    for (const at of order) {
      const started = performance.now();
      await run(clients[at]!, i);
      times[at]!.push(performance.now() - started);
    }
  }
  return times.map(median);
}

const texts = await timeEach(Number(args.texts), (client, i) => client.embed([chatText(i)], false));
const windows = await timeEach(Math.ceil(Number(args.texts) / 4), (client, i) =>
  client.embed([`${chatText(i)}\n${chatText(i + 1)}\n${chatText(i + 2)}`], false),
);
const queries = await timeEach(Number(args.queries), (client, i) =>
  client.embed([`What did Anna say about the garden? (${i})`], true),
);
for (const [at, runtime] of RUNTIMES.entries()) {
  console.log(
    `${runtime.padEnd(11)}: chat text p50 ${texts[at]!.toFixed(1)} ms (${(1000 / texts[at]!).toFixed(0)} texts/s on one thread), ` +
      `full window p50 ${windows[at]!.toFixed(1)} ms, query p50 ${queries[at]!.toFixed(1)} ms`,
  );
}
console.log(
  `ONNX Runtime faster per chat text ${(texts[1]! / texts[0]!).toFixed(2)}x, per full window ` +
    `${(windows[1]! / windows[0]!).toFixed(2)}x, per query ${(queries[1]! / queries[0]!).toFixed(2)}x`,
);
console.log(
  `(${args.texts} texts, ${args.queries} queries each; load average ${loadavg()[0]!.toFixed(1)}: shared machine, noisy)`,
);
// Stopped before the exit: a worker stopped inside ONNX Runtime's run aborts the process.
await Promise.all(clients.map((client) => client.close()));
process.exit(0);
