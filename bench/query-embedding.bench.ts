/**
 * @module The offline model's time for one recall query (a short question, urgent, on an idle worker), as
 * /retrieve waits for it. With `--compare TREE` (e.g. `git archive main` extracted, node_modules linked) both
 * trees' model pools run in this process, one worker each, and are asked in alternation, so a shared
 * machine's load falls on both alike.
 * Run: node --import tsx bench/query-embedding.bench.ts [--queries 150] [--compare TREE]
 *
 * Measured (issue 27), --queries 150 --compare main's copy, load average 4.3: this branch (the graph run with
 * execute, its dynamic ops' outputs fed) p50 21.5 ms, main (executeAsync) 22.8 ms.
 * Measured (issue 27, USE-lite on ONNX Runtime), --compare the main issue 27 was filed on, load average 3.0:
 * p50 4.4 ms against 22.1 ms.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: { queries: { type: 'string', default: '150' }, compare: { type: 'string' } },
});
interface QueryEmbedder {
  embed(texts: string[], options: { query: boolean }): Promise<Float32Array[]>;
}
/** A compared tree's pool may predate close(). */
const pools: { close?: () => Promise<void> }[] = [];
const trees = [join(import.meta.dirname, '..'), ...(args.compare === undefined ? [] : [args.compare])];
const embedders: QueryEmbedder[] = [];
for (const tree of trees) {
  const offline = join(tree, 'src', 'embedding', 'offline');
  const { OfflineEmbedder } = await import(join(offline, 'offline-embedder.ts'));
  const { OfflineModelClient } = await import(join(offline, 'offline-model-client.ts'));
  const client = new OfflineModelClient({ workers: 1 });
  pools.push(client);
  const embedder: QueryEmbedder = new OfflineEmbedder({ client });
  await embedder.embed(['warm up'], { query: true }); // loads the model: not counted
  embedders.push(embedder);
}
const times = trees.map((): number[] => []);
for (let i = 0; i < Number(args.queries); i++) {
  const order = i % 2 === 0 ? trees.keys() : [...trees.keys()].reverse();
  for (const at of order) {
    const started = performance.now();
    await embedders[at]!.embed([`What did Anna say about the garden and the marathon? (${i})`], {
      query: true,
    });
    times[at]!.push(performance.now() - started);
  }
}
const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
for (const [at, tree] of trees.entries())
  console.log(`${tree}: query embedding p50 ${median(times[at]!).toFixed(1)} ms`);
console.log(
  `(${args.queries} queries each; load average ${loadavg()[0]!.toFixed(1)}: shared machine, noisy)`,
);
// Stopped before the exit: a worker stopped inside ONNX Runtime's run aborts the process.
await Promise.all(pools.map((pool) => pool.close?.()));
process.exit(0);
