/**
 * @module Runs every shell block README.md and docs/ mark as runnable (`<!-- runnable: NAME -->` above a ```sh
 * block) against a test instance, as a user would type them: the demo, an import, export and restore, and the
 * replica recipe on a throwaway Postgres. A doc whose commands stopped working fails here.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { skipWithoutPostgres, startPostgres } from '../../src/journal/test-support/start-postgres.js';
import { findFreePort } from '../../src/runtime/find-free-port.js';
import { REPO_ROOT } from './read-markdown.js';
import { readRunnableBlocks, type RunnableBlock } from './read-runnable-blocks.js';
import { type BlockOutcome, runPageBlocks } from './run-doc-blocks.js';

const blocks = readRunnableBlocks();
/** Ports the docs name, each moved to a free one per run. */
const DOCUMENTED_PORTS = [3102, 3103, 3104, 6333, 8080];

/** A scratch folder with `docs` linked, so `docs/examples/...` in a block reads the repository's files. */
function makeScratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-docs-'));
  symlinkSync(join(REPO_ROOT, 'docs'), join(dir, 'docs'));
  return dir;
}

async function movePorts(extra: [number, number][] = []): Promise<Map<number, number>> {
  const ports = new Map<number, number>(extra);
  for (const port of DOCUMENTED_PORTS) ports.set(port, await findFreePort());
  return ports;
}

/** Each failed block, or one whose output lacks its `expect`, with the output to read. */
function describeFailures(outcomes: readonly BlockOutcome[]): string[] {
  return outcomes
    .filter(({ block, output, failed }) => failed || (block.expect !== undefined && !output.includes(block.expect)))
    .map(({ block, output, failed }) =>
      `${block.file}:${block.line} (${block.name}) ${failed ? 'failed' : `printed no "${block.expect}"`}:\n${output.slice(-3000)}`,
    );
}

function groupByPage(list: readonly RunnableBlock[]): RunnableBlock[][] {
  const pages = new Map<string, RunnableBlock[]>();
  for (const block of list) pages.set(block.file, [...(pages.get(block.file) ?? []), block]);
  return [...pages.values()];
}

test('the docs mark the demo, an import, export and restore, and the replica recipe as runnable', () => {
  const names = blocks.map((block) => block.name);
  for (const name of ['readme-demo', 'demo', 'import-export-restore', 'replica-recipe'])
    assert.ok(names.some((found) => found.startsWith(name)), `no runnable block named ${name}*`);
});

test('every runnable block that needs only memory-pool runs against a test instance', { timeout: 300_000 }, async () => {
  const dir = makeScratch();
  const ports = await movePorts();
  // The built-in defaults, on free ports, with a 1 s idle flush so the demo's chunk is written at once.
  writeFileSync(
    join(dir, 'memory-pool.yaml'),
    [
      `listen: { host: 127.0.0.1, port: ${ports.get(3102)} }`,
      `store: { embedded: { path: ./data/qdrant, port: ${ports.get(6333)} } }`,
      'embedding: { provider: offline, workers: 1 }',
      'bots: { default: { selfSpeaker: Assistant, chunk: { idleMs: 1000 } } }',
      '',
    ].join('\n'),
  );
  const serve: RunnableBlock = {
    file: 'runnable-blocks.test.ts',
    line: 0,
    name: 'start serve',
    code: 'memory-pool serve > serve.log 2>&1 &\nfor i in $(seq 120); do curl -sf localhost:3102/ready > /dev/null && break; sleep 1; done\ncurl -sf localhost:3102/ready',
    needs: [],
    expect: undefined,
  };
  const pages = groupByPage(blocks.filter((block) => block.needs.length === 0));
  const outcomes = await runPageBlocks([serve, ...pages.flat()], { cwd: dir, ports, timeoutMs: 280_000 });
  assert.deepEqual(describeFailures(outcomes), []);
});

/** The recipe's nginx step runs where Debian's nginx is installed (`.ci/run` installs it); elsewhere it is left out. */
const hasNginx = existsSync('/usr/sbin/nginx');
const needPostgres = blocks.filter(
  (block) => block.needs.includes('postgres') && (hasNginx || !block.needs.includes('nginx')),
);
test('the replica recipe balances its replicas through nginx', { skip: hasNginx ? false : 'nginx is not installed' }, () => {
  assert.ok(needPostgres.some((block) => block.needs.includes('nginx')), 'no runnable block needs nginx');
});

const skipPostgres = needPostgres.length === 0 ? 'no block needs Postgres' : skipWithoutPostgres;

let postgres: Awaited<ReturnType<typeof startPostgres>> | undefined;
before(async () => {
  if (skipPostgres === false) postgres = await startPostgres();
});
after(async () => postgres?.stop());

test('every runnable block that needs Postgres runs on a throwaway server', { skip: skipPostgres, timeout: 300_000 }, async () => {
  assert.ok(postgres !== undefined);
  const server = new URL(postgres.url);
  for (const page of groupByPage(needPostgres)) {
    const ports = await movePorts([[5432, Number(server.port)]]);
    const outcomes = await runPageBlocks(page, {
      cwd: makeScratch(),
      ports,
      env: { PGHOST: server.hostname, PGPORT: server.port, PGUSER: 'postgres' },
      timeoutMs: 280_000,
    });
    assert.deepEqual(describeFailures(outcomes), []);
  }
});
