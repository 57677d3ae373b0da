/**
 * @module recall-latency.bench.ts `--compare`: two trees (this branch and a copy of main) each run as
 * `memory-pool serve`, each on its own copy of one kept folder, both up at once and asked the same questions
 * in alternation (one new and one repeated query to one, then to the other, the order flipping every
 * question), so a shared machine's load falls on both alike. The client runs in this process, apart from
 * both services.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createServiceProcess, type ServiceProcess } from './service-process.js';
import { awaitStoreGraphs } from './await-store-graphs.js';
import { timedPost } from './service-client.js';

export interface RecallLatencyComparison {
  /** Source trees to serve from, e.g. the worktree and `git archive main` extracted with node_modules linked. */
  readonly trees: readonly [string, string];
  /** One kept folder per tree (copies of one recall-latency.bench.ts --keep folder). */
  readonly dirs: readonly [string, string];
  readonly queries: number;
  /** The i-th question. */
  readonly question: (i: number) => string;
}

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const fmt = (values: readonly number[]) =>
  `p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms`;

/** Asks both trees' services; prints each one's new and repeated query p50/p95 and the loads seen. */
export async function compareRecallLatency(comparison: RecallLatencyComparison): Promise<void> {
  const services: ServiceProcess[] = [];
  try {
    for (const [i, tree] of comparison.trees.entries()) {
      const bots = { mythos: { selfSpeaker: 'Mythos', collection: 'mem_mythos' } };
      const service = await createServiceProcess({ dir: comparison.dirs[i]!, bots, tree });
      await service.start();
      services.push(service);
    }
    // A tree with approximate indexes rebuilds them after its start; measure it as it runs, not meanwhile.
    for (const service of services) await awaitStoreGraphs(service.storeUrl);
    /** Each new query's hits per tree, to say whether both trees answered the same. */
    const answers = services.map((): Hit[][] => []);
    const ask = async (service: ServiceProcess, query: string, at?: number) => {
      const started = performance.now();
      const response = await fetch(`${service.url}/retrieve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ bot: 'mythos', query_text: query }),
        signal: AbortSignal.timeout(10_000),
      });
      const body = (await response.json()) as { hits?: Hit[] };
      const ms = performance.now() - started;
      if (response.status !== 200) throw new Error(`${service.url}/retrieve answered ${response.status}`);
      if (at !== undefined) answers[at]!.push(body.hits ?? []);
      return ms;
    };
    // The first queries load the model and warm the store's caches: not counted, and on a loaded machine the
    // first may pass recall's 3 s deadline (503) while the model loads.
    for (const service of services) {
      for (let i = 0, answered = 0; answered < 3; i++) {
        if (i === 20) throw new Error(`${service.url}/retrieve never answered 200 while warming up`);
        const { status } = await timedPost(`${service.url}/retrieve`, {
          bot: 'mythos',
          query_text: `warm ${i}`,
        });
        if (status === 200) answered++;
      }
    }
    const fresh = services.map((): number[] => []);
    const repeated = services.map((): number[] => []);
    const loads: number[] = [];
    for (let q = 0; q < comparison.queries; q++) {
      const query = comparison.question(q);
      for (const at of q % 2 === 0 ? [0, 1] : [1, 0]) {
        fresh[at]!.push(await ask(services[at]!, query, at));
        repeated[at]!.push(await ask(services[at]!, query));
      }
      if (q % 10 === 0) loads.push(loadavg()[0]!);
    }
    for (const [at, tree] of comparison.trees.entries()) {
      console.log(
        `${tree} (${comparison.dirs[at]}): /retrieve new query ${fmt(fresh[at]!)}; repeated query ${fmt(repeated[at]!)}; ${readRss(services[at]!.pid)}`,
      );
    }
    console.log(describeAgreement(answers[0]!, answers[1]!));
    console.log(
      `(${comparison.queries} questions each, alternated; load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)} on 2 cores: shared machine, noisy)`,
    );
  } finally {
    for (const service of services) await service.stop();
  }
}

/** A hit as both trees answer it: what a caller compares. */
interface Hit {
  readonly text?: string;
  readonly score?: number;
}

/** How many new queries both trees answered with the same texts in the same order, and the largest score gap. */
function describeAgreement(one: readonly Hit[][], other: readonly Hit[][]): string {
  let same = 0;
  let gap = 0;
  for (const [i, hits] of one.entries()) {
    const theirs = other[i] ?? [];
    if (hits.length === theirs.length && hits.every((hit, j) => hit.text === theirs[j]?.text)) same++;
    for (const [j, hit] of hits.entries())
      gap = Math.max(gap, Math.abs((hit.score ?? 0) - (theirs[j]?.score ?? 0)));
  }
  return `answers: ${same} of ${one.length} new queries the same hits in the same order; largest score difference ${gap.toExponential(2)}`;
}

/** The service process's resident memory now (model, store and all), from /proc (Linux). */
function readRss(pid: number | undefined): string {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
    return `RSS ${(kb / 1024).toFixed(0)} MB`;
  } catch {
    return 'RSS unknown';
  }
}
