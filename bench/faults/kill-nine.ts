/**
 * @module Fault run: `kill -9` of the service at random moments of the ingest (and once while it drains),
 * each time started again on the same data. Nothing acknowledged may be lost and no message doubled.
 */
import { join } from 'node:path';
import { startFakeOpenAiServer } from '../../src/embedding/test-support/fake-openai-server.js';
import { seededRandom } from '../../src/runtime/seeded-random.js';
import { type AuditResult, auditPoints } from '../support/audit-points.js';
import { Acknowledged } from '../support/conversation-windows.js';
import { waitForDrain } from '../support/service-client.js';
import { createServiceProcess } from '../support/service-process.js';
import { fakeProviderEmbedding } from './embedder-faults.js';
import { FAULT_BOTS, faultBotsConfig, type IngestProgress, runIngest } from './ingest-traffic.js';

export interface KillNineOptions {
  readonly dir: string;
  readonly messages: number;
  readonly kills: number;
  readonly seed: number;
  /**
   * `offline` (default): the product's model; `fake`: an OpenAI-compatible stand-in in this process, answering
   * at once, so a larger ingest fits in minutes and every kill lands among requests sent side by side.
   */
  readonly embedder?: 'offline' | 'fake';
}

export async function runKillNine(options: KillNineOptions): Promise<AuditResult> {
  const random = seededRandom(options.seed + 1);
  const embeddings =
    options.embedder === 'fake' ? await startFakeOpenAiServer({ dimensions: 64 }) : undefined;
  const service = await createServiceProcess({
    dir: join(options.dir, 'kill-nine'),
    bots: faultBotsConfig(),
    ...(embeddings && { embedding: fakeProviderEmbedding(embeddings) }),
  });
  try {
    await service.start();
    const acknowledged = new Acknowledged();
    const progress: IngestProgress = { produced: 0, saves: 0, failedSaves: 0 };
    // Kill points spread over the ingest at random message counts.
    const killAt = Array.from({ length: options.kills }, () => Math.floor(random() * options.messages)).sort(
      (a, b) => a - b,
    );
    let killed = 0;
    const ingest = runIngest({
      serviceUrl: service.url,
      messages: options.messages,
      seed: options.seed,
      acknowledged,
      progress,
      label: 'kill',
    });
    let done = false;
    void ingest.finally(() => {
      done = true;
    });
    // Bounded: one check every 5 ms for at most an hour (a 100,000-message ingest with a fake embedder takes ~30 min).
    for (let tick = 0; tick < 720_000 && !done && killed < killAt.length; tick++) {
      if (progress.produced >= killAt[killed]!) {
        // A random extra delay, so the kill lands anywhere in a save, a plan, an embed or an upsert.
        await new Promise((resolve) => setTimeout(resolve, random() * 300));
        await service.kill();
        killed += 1;
        await service.start();
      } else {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    await ingest;
    // Once more while the writer drains what is left.
    await new Promise((resolve) => setTimeout(resolve, 200 + random() * 1_500));
    await service.kill();
    killed += 1;
    await service.start();
    const drainMs = await waitForDrain(service.url, Object.keys(FAULT_BOTS), 300_000);
    console.log(
      `kill -9: ${killed} kills, ${progress.saves} saves (${progress.failedSaves} failed while down), drained in ${(drainMs / 1000).toFixed(1)} s`,
    );
    return await auditPoints(service.storeUrl, FAULT_BOTS, acknowledged);
  } finally {
    await service.stop();
    await embeddings?.close();
  }
}
