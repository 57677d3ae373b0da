/**
 * @module The on-demand adversarial suite (not part of `npm test`): kill -9 during ingest, a misbehaving
 * embedder, and the store down for a while. Each run ends with a scroll of every point and prints
 * acknowledged / lost / doubled; the process exits non-zero when any acknowledged message was lost.
 * Run: node --import tsx bench/faults/faults.bench.ts [--only kill,embedder,store --messages 2000 --kills 6 --outage-seconds 60
 *   --store-embedder offline|fake --kill-embedder offline|fake]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type AuditResult, printAudit } from '../support/audit-points.js';
import { runEmbedderFaults } from './embedder-faults.js';
import { runKillNine } from './kill-nine.js';
import { runStoreOutage } from './store-outage.js';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string', default: 'kill,embedder,store' },
    messages: { type: 'string', default: '2000' },
    kills: { type: 'string', default: '6' },
    'outage-seconds': { type: 'string', default: '60' },
    'store-embedder': { type: 'string', default: 'offline' },
    'kill-embedder': { type: 'string', default: 'offline' },
    seed: { type: 'string', default: '1' },
    keep: { type: 'boolean', default: false },
  },
});
const messages = Number(args.messages);
const seed = Number(args.seed);
const dir = mkdtempSync(join(tmpdir(), 'memory-pool-faults-'));
const runs: Record<string, () => Promise<AuditResult>> = {
  kill: () =>
    runKillNine({
      dir,
      messages,
      kills: Number(args.kills),
      seed,
      embedder: args['kill-embedder'] === 'fake' ? 'fake' : 'offline',
    }),
  embedder: () => runEmbedderFaults({ dir, messages, seed }),
  store: () =>
    runStoreOutage({
      dir,
      messages,
      outageSeconds: Number(args['outage-seconds']),
      seed,
      embedder: args['store-embedder'] === 'fake' ? 'fake' : 'offline',
    }),
};

let clean = true;
try {
  for (const name of args.only.split(',')) {
    const run = runs[name];
    if (run === undefined) throw new Error(`--only: unknown run ${name}; use kill, embedder, store`);
    const started = Date.now();
    const audit = await run();
    clean = printAudit(`${name} (${((Date.now() - started) / 1000).toFixed(0)} s)`, audit) && clean;
  }
} catch (error) {
  clean = false;
  console.error(
    `fault run failed: ${error instanceof Error ? error.message : String(error)} (logs in ${dir})`,
  );
  args.keep = true;
} finally {
  if (args.keep) console.log(`data and logs kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
process.exitCode = clean ? 0 : 1;
