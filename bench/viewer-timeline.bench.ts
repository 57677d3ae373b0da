/**
 * @module How fast the memory viewer's first page is on a big collection: the timeline's first page through
 * the API (unfiltered and filtered) and the first page rendered in Debian's Chromium, on 10k and 100k points,
 * interleaved over several rounds; prints medians and the 100k / 10k ratio.
 * Run: `node --import tsx bench/viewer-timeline.bench.ts [--rounds 5] [--points 100000]`
 *
 * Recorded once at 40474d4 (embedded store, Node 20, Debian's Chromium; 2 cores shared with other work, load
 * average 6.64 before and 5.73 after, so absolute figures are pessimistic). Medians of 5 interleaved rounds, ms:
 *
 *   measure                          10k points   100k points   ratio
 *   api first page                        42.9         208.6    4.86
 *   api first page, speaker=Anna          29.0         125.6    4.33
 *   api page 20 (following cursors)       19.1         129.5    6.79
 *   browser: first page rendered         324.6         470.9    1.45
 *
 * Seeding took 1.0 s / 7.4 s; after a restart the timestamp index was listed in 64 / 151 ms.
 */
import { QdrantClient } from '@qdrant/js-client-rest';
import { chromium } from 'playwright-core';
import { buildViewer } from '../src/http/test-support/build-viewer.js';
import { seededRandom } from '../src/runtime/seeded-random.js';
import { type TestService, startTestService } from '../src/service/test-support/start-test-service.js';
import { TEST_DIMENSIONS } from '../src/config/test-support/test-bot.js';

function readFlag(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
}

const ROUNDS = readFlag('--rounds', 5);
const BIG = readFlag('--points', 100_000);
const SIZES = [10_000, BIG];
const COLLECTION = 'mem_mythos';
const SOURCES = ['discord', 'hermes', 'api', undefined];
const SPEAKERS = ['Helen', 'Anna', 'Ben', 'Chloe'];

async function seed(service: TestService, points: number): Promise<number> {
  const client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
  await client.createCollection(COLLECTION, { vectors: { size: TEST_DIMENSIONS, distance: 'Cosine' } });
  const random = seededRandom(points);
  const started = performance.now();
  for (let first = 0; first < points; first += 2000) {
    const batch = [];
    for (let id = first; id < Math.min(points, first + 2000); id++) {
      const source = SOURCES[id % SOURCES.length];
      const speaker = SPEAKERS[id % SPEAKERS.length]!;
      const timestamp = Date.parse('2024-01-01T00:00:00Z') + Math.floor(random() * 3 * 365 * 86_400_000);
      batch.push({
        id: id + 1,
        vector: Array.from({ length: TEST_DIMENSIONS }, () => random() * 2 - 1),
        payload: {
          text: `[${new Date(timestamp).toISOString().slice(0, 10)}]\n${speaker}: memory ${id}, about the garden and the piano.\nMythos: noted, ${id}.`,
          speakers: `${speaker}, Mythos`,
          messageCount: 2,
          timestamp,
          messageIds: `m${id}a,m${id}b`,
          isChunk: true,
          ...(source === undefined ? {} : { source, channelId: `c${id % 50}` }),
        },
      });
    }
    await client.upsert(COLLECTION, { wait: true, points: batch });
  }
  return performance.now() - started;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Ms until the store lists the timeline's index (start-up asks for it without waiting). */
async function waitForIndex(service: TestService): Promise<number> {
  const client = new QdrantClient({ url: service.storeUrl!, checkCompatibility: false });
  const started = performance.now();
  while (!(await client.getCollection(COLLECTION)).payload_schema?.timestamp) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return performance.now() - started;
}

async function timeApi(service: TestService, query: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${service.url}/bots/mythos/points?limit=50${query}`);
  const page = (await response.json()) as { points: unknown[]; order: string };
  if (response.status !== 200 || page.points.length !== 50 || page.order !== 'newest-first') {
    throw new Error(`unexpected answer ${response.status} ${page.order}`);
  }
  return performance.now() - started;
}

buildViewer();
const services = new Map<number, TestService>();
for (const size of SIZES) {
  const seeding = await startTestService();
  const ms = await seed(seeding, size);
  // The collection exists when memory-pool starts, as SillyTavern's does: start-up asks for the timestamp index.
  await seeding.stop();
  const started = performance.now();
  const service = await startTestService({ dir: seeding.dir });
  services.set(size, service);
  const indexed = await waitForIndex(service);
  const first = await timeApi(service, '');
  console.log(
    `${size} points seeded in ${(ms / 1000).toFixed(1)} s; restart until the index is listed: ${indexed.toFixed(0)} ms` +
      ` (${(performance.now() - started).toFixed(0)} ms with the start); first timeline call: ${first.toFixed(0)} ms`,
  );
}
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const KINDS = [
  'api first page',
  'api first page, speaker=Anna',
  'api page 20 (following cursors)',
  'browser: first page rendered',
] as const;
const samples = new Map<string, number[]>();
const record = (size: number, kind: string, ms: number) => {
  const key = `${size}|${kind}`;
  samples.set(key, [...(samples.get(key) ?? []), ms]);
};
try {
  for (let round = 0; round < ROUNDS; round++) {
    // Interleaved: each round measures every size once, so machine noise falls on both alike.
    for (const size of SIZES) {
      const service = services.get(size)!;
      record(size, KINDS[0], await timeApi(service, ''));
      record(size, KINDS[1], await timeApi(service, '&speaker=Anna'));
      let cursor = '';
      let deep = 0;
      for (let page = 0; page < 20; page++) {
        const started = performance.now();
        const answer = (await (
          await fetch(`${service.url}/bots/mythos/points?limit=50${cursor}`)
        ).json()) as {
          next_cursor: string;
        };
        deep = performance.now() - started;
        cursor = `&cursor=${answer.next_cursor}`;
      }
      record(size, KINDS[2], deep);
      const tab = await browser.newPage();
      const started = performance.now();
      await tab.goto(`${service.url}/ui`);
      await tab.locator('article.memory').nth(49).waitFor();
      record(size, KINDS[3], performance.now() - started);
      await tab.close();
    }
  }
  console.log(`\nmedians of ${ROUNDS} interleaved rounds (ms)`);
  console.log(
    `${'measure'.padEnd(34)}${SIZES.map((s) => `${s} points`.padStart(14)).join('')}${'ratio'.padStart(8)}`,
  );
  for (const kind of KINDS) {
    const [small, big] = SIZES.map((size) => median(samples.get(`${size}|${kind}`) ?? []));
    console.log(
      `${kind.padEnd(34)}${[small!, big!].map((v) => v.toFixed(1).padStart(14)).join('')}${(big! / small!).toFixed(2).padStart(8)}`,
    );
  }
} finally {
  await browser.close();
  for (const service of services.values()) await service.close();
}
