/**
 * @module Fault run: the store (`memory-pool qdrant`, its own process, reached through QDRANT_URL) killed
 * with SIGKILL part-way through the ingest and started again on the same data `outageSeconds` later.
 * /save keeps acknowledging from the journal; the writer stores everything once the store is back.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeOpenAiServer } from '../../src/embedding/test-support/fake-openai-server.js';
import { findFreePort } from '../../src/runtime/find-free-port.js';
import { type AuditResult, auditPoints } from '../support/audit-points.js';
import { spawnCli, stopChild, waitForHttp } from '../support/child-processes.js';
import { Acknowledged } from '../support/conversation-windows.js';
import { waitForDrain } from '../support/service-client.js';
import { createServiceProcess } from '../support/service-process.js';
import { fakeProviderEmbedding } from './embedder-faults.js';
import { FAULT_BOTS, faultBotsConfig, type IngestProgress, runIngest } from './ingest-traffic.js';

export interface StoreOutageOptions {
  readonly dir: string;
  readonly messages: number;
  readonly outageSeconds: number;
  readonly seed: number;
  /**
   * `offline` (the default model, in the service) or `fake` (the fake OpenAI-compatible server, instant):
   * with `fake` the drain measures how long the writer waits after the outage, not how fast the CPU embeds.
   */
  readonly embedder: 'offline' | 'fake';
}

export async function runStoreOutage(options: StoreOutageOptions): Promise<AuditResult> {
  const dir = join(options.dir, 'store-outage');
  mkdirSync(dir, { recursive: true });
  const port = await findFreePort();
  const storeUrl = `http://127.0.0.1:${port}`;
  const startStore = async () => {
    const child = spawnCli(
      ['qdrant', '--data', join(dir, 'qdrant'), '--port', String(port)],
      join(dir, 'store.log'),
      {
        LOG_LEVEL: 'warn',
      },
    );
    await waitForHttp(`${storeUrl}/healthz`, child);
    return child;
  };
  let store = await startStore();
  const embeddings =
    options.embedder === 'fake' ? await startFakeOpenAiServer({ dimensions: 64 }) : undefined;
  const service = await createServiceProcess({
    dir,
    bots: faultBotsConfig(),
    qdrantUrl: storeUrl,
    ...(embeddings && { embedding: fakeProviderEmbedding(embeddings) }),
  });
  try {
    await service.start();
    const acknowledged = new Acknowledged();
    const progress: IngestProgress = { produced: 0, saves: 0, failedSaves: 0 };
    const half = Math.floor(options.messages / 2);
    await runIngest({
      serviceUrl: service.url,
      messages: half,
      seed: options.seed,
      acknowledged,
      progress,
      label: 'before',
    });
    await stopChild(store, 'SIGKILL');
    const downAt = Date.now();
    // The second half is spread over the outage, so /save is exercised the whole time the store is down.
    const turns = (options.messages - half) / 2 / 4; // ~2 messages a turn, 4 clients
    const pauseMs = Math.max(0, (options.outageSeconds * 1000 * 0.8) / turns);
    const during = runIngest({
      serviceUrl: service.url,
      messages: options.messages - half,
      seed: options.seed + 7,
      acknowledged,
      pauseMs,
      label: 'during',
    });
    // Back after the outage whether or not the ingest has finished: the rest of it meets a live store.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, downAt + options.outageSeconds * 1000 - Date.now())),
    );
    store = await startStore();
    const upAt = Date.now();
    const rest = await during;
    console.log(
      `store down ${((upAt - downAt) / 1000).toFixed(1)} s; ${rest.saves} saves from its kill to the end of the ingest (${rest.failedSaves} failed)`,
    );
    const drainMs = await waitForDrain(service.url, Object.keys(FAULT_BOTS), 600_000);
    console.log(
      `store outage (${options.embedder} embedder): drained ${((Date.now() - upAt) / 1000).toFixed(1)} s after the store came back (${(drainMs / 1000).toFixed(1)} s after the ingest ended)`,
    );
    return await auditPoints(storeUrl, FAULT_BOTS, acknowledged);
  } finally {
    await service.stop();
    await stopChild(store, 'SIGTERM');
    await embeddings?.close();
  }
}
