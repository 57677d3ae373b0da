/**
 * @module What a restart costs the embedded store's HNSW graphs (issue 36): opening a kept store folder with
 * its saved graphs (loaded) against opening it without them (rebuilt in the background, searches exact until
 * done), in alternating rounds, with the load average beside each figure.
 * Run: node --import tsx bench/graph-restart.bench.ts DIR [--rounds N]
 * DIR is the store's folder (a recall-latency `--keep` folder's `qdrant/`), closed: the store holds it alone.
 * A rebuild round moves the saved graphs aside and deletes them afterwards: the rebuilt graph, saved at its
 * close, serves the next load round.
 */
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { StoreEngine } from '../src/qdrant-server/engine/engine-api.js';
import { openStoreEngine } from '../src/qdrant-server/engine/index.js';
import { GRAPH_FOLDER } from '../src/qdrant-server/engine/sqlite-persistence.js';

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: graph-restart.bench.ts STORE_DIR [--rounds N]');
const at = process.argv.indexOf('--rounds');
const ROUNDS = at > 0 ? Number(process.argv[at + 1]) : 1;

interface Counts {
  readonly points: number;
  readonly indexed: number;
}

/** Points and indexed vectors over every collection (each bench collection has one dense vector a point). */
function countAll(store: StoreEngine): Counts {
  let [points, indexed] = [0, 0];
  for (const name of store.listCollections()) {
    const info = store.collection(name).info() as { points_count: number; indexed_vectors_count: number };
    points += info.points_count;
    indexed += info.indexed_vectors_count;
  }
  return { points, indexed };
}

/** Megabytes of the saved graphs' files. */
function graphsSize(): string {
  const folder = join(dir!, GRAPH_FOLDER);
  if (!existsSync(folder)) return '0 MB';
  const bytes = readdirSync(folder).reduce((sum, name) => sum + statSync(join(folder, name)).size, 0);
  return `${(bytes / 2 ** 20).toFixed(0)} MB`;
}

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
const load = () => loadavg()[0]!.toFixed(1);

async function runRound(rebuild: boolean): Promise<void> {
  const aside = join(dir!, `${GRAPH_FOLDER}.aside`);
  // Without the folder the rows name missing files: each graph is refused and rebuilt, as for a torn file.
  if (rebuild && existsSync(join(dir!, GRAPH_FOLDER))) renameSync(join(dir!, GRAPH_FOLDER), aside);
  const loadAtStart = load();
  const opening = performance.now();
  const store = openStoreEngine({ dataDir: dir! });
  const opened = seconds(opening);
  const atOnce = countAll(store);
  let [done, complete] = [atOnce, opened];
  // Graphs fill in background slices between turns of the event loop; those under the threshold stay empty,
  // so the wait ends 10 s after the last change and the time reported is that change's.
  for (let idle = 0; done.indexed < done.points && idle < 10; ) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const next = countAll(store);
    if (next.indexed === done.indexed) idle++;
    else [idle, done, complete] = [0, next, seconds(opening)];
  }
  const closing = performance.now();
  store.close();
  console.log(
    `${rebuild ? 'rebuild' : 'load   '}: opened in ${opened} s with ${atOnce.indexed} of ${atOnce.points} vectors ` +
      `indexed at once; ${done.indexed} indexed after ${complete} s; closed (saving) in ${seconds(closing)} s ` +
      `(load average ${loadAtStart} → ${load()}); saved graphs ${graphsSize()}`,
  );
  if (rebuild) rmSync(aside, { recursive: true, force: true });
}

for (let round = 0; round < ROUNDS; round++) {
  // Rebuild first (a folder never opened by this version has no saved graph yet), then alternate which goes
  // first, so a drift in the machine's load does not favour one.
  const order = round % 2 === 0 ? [true, false] : [false, true];
  for (const rebuild of order) await runRound(rebuild);
}
