/**
 * @module A remote embedder's stand-in: an OpenAI-compatible /embeddings endpoint answering with hashing
 * vectors after a fixed delay, so a benchmark measures the service's own cost beside a remote model's latency.
 * It runs in a worker thread, as a remote endpoint runs elsewhere: encoding its answers is not charged to the
 * event loop of the service it stands in for.
 */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

export interface EmbedderStandIn {
  /** The `baseUrl` an openai-compatible embedding section points at (…/v1). */
  readonly baseUrl: string;
  close(): Promise<void>;
}

export interface StandInOptions {
  /**
   * Vectors with every component set, as real models give (default false: hashing vectors, mostly zeros,
   * whose JSON is ~8x shorter than a real model's, so the floats a client parses are cheaper than in life).
   */
  readonly dense?: boolean;
}

/** Starts the stand-in on a free loopback port: `dimensions`-d vectors, each answer after `delayMs`. */
export async function startEmbedderStandIn(
  delayMs: number,
  dimensions: number,
  options: StandInOptions = {},
): Promise<EmbedderStandIn> {
  // Benchmarks run under tsx, whose loader a worker does not inherit: it registers it before the import.
  const source =
    "import('tsx/esm/api').then(({ register }) => { register(); return import(require('node:worker_threads').workerData.module); })";
  const worker = new Worker(source, {
    eval: true,
    workerData: {
      module: new URL('./embedder-stand-in-worker.ts', import.meta.url).href,
      delayMs,
      dimensions,
      dense: options.dense ?? false,
    },
  });
  const [port] = (await once(worker, 'message')) as [number];
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: async () => {
      await worker.terminate();
    },
  };
}
