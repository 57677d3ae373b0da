/**
 * @module Fault run: the embedding provider (the fake OpenAI-compatible server) refusing (503 and dropped
 * connections), rate limiting (429 with Retry-After) and hanging (no answer within the client's timeout)
 * in turns while the ingest runs. The writer retries; nothing acknowledged may be lost or doubled.
 */
import { join } from 'node:path';
import { startFakeOpenAiServer } from '../../src/embedding/test-support/fake-openai-server.js';
import { type AuditResult, auditPoints } from '../support/audit-points.js';
import { Acknowledged } from '../support/conversation-windows.js';
import { waitForDrain } from '../support/service-client.js';
import { createServiceProcess } from '../support/service-process.js';
import { FAULT_BOTS, faultBotsConfig, type IngestProgress, runIngest } from './ingest-traffic.js';
import type { FakeFault } from '../../src/embedding/test-support/fake-openai-server.js';

export interface EmbedderFaultsOptions {
  readonly dir: string;
  readonly messages: number;
  readonly seed: number;
}

/** The faults queued in turn, each for this many embedding requests. */
const PHASES: readonly { name: string; fault: FakeFault; times: number }[] = [
  { name: 'refusing (503)', fault: { kind: 'status', status: 503, message: 'overloaded' }, times: 12 },
  {
    name: 'rate limiting (429, Retry-After 1)',
    fault: { kind: 'status', status: 429, retryAfter: '1' },
    times: 12,
  },
  { name: 'hanging (30 s, past the 1 s timeout)', fault: { kind: 'slow', delayMs: 30_000 }, times: 6 },
  { name: 'dropping connections', fault: { kind: 'drop-connection' }, times: 8 },
];

/** The service's `embedding:` section for the fake provider (64-d vectors, 16 texts a request). */
export function fakeProviderEmbedding(
  embeddings: { readonly baseUrl: string; readonly models: readonly string[] },
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    provider: 'openai-compatible',
    baseUrl: embeddings.baseUrl,
    model: embeddings.models[0],
    dimensions: 64,
    batchSize: 16,
    ...extra,
  };
}

export async function runEmbedderFaults(options: EmbedderFaultsOptions): Promise<AuditResult> {
  const embeddings = await startFakeOpenAiServer({ dimensions: 64 });
  const service = await createServiceProcess({
    dir: join(options.dir, 'embedder-faults'),
    bots: faultBotsConfig(),
    embedding: fakeProviderEmbedding(embeddings, { timeoutMs: 1_000, maxRetries: 1 }),
  });
  try {
    await service.start();
    const acknowledged = new Acknowledged();
    const progress: IngestProgress = { produced: 0, saves: 0, failedSaves: 0 };
    const ingest = runIngest({
      serviceUrl: service.url,
      messages: options.messages,
      seed: options.seed,
      acknowledged,
      progress,
      label: 'embedder',
      pauseMs: 5, // spread the ingest over the phases
    });
    // Each phase starts once the previous one's faults were all consumed (bounded: 60 s a phase).
    for (const phase of PHASES) {
      embeddings.failNext(phase.fault, phase.times);
      const before = embeddings.requests.length;
      for (let tick = 0; tick < 600 && embeddings.requests.length < before + phase.times; tick++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      console.log(`embedder ${phase.name}: ${embeddings.requests.length - before} requests answered so`);
    }
    await ingest;
    const drainMs = await waitForDrain(service.url, Object.keys(FAULT_BOTS), 600_000);
    console.log(
      `embedder faults: ${progress.saves} saves, ${embeddings.requests.length} embedding requests, drained in ${(drainMs / 1000).toFixed(1)} s`,
    );
    return await auditPoints(service.storeUrl, FAULT_BOTS, acknowledged);
  } finally {
    await service.stop();
    await embeddings.close();
  }
}
