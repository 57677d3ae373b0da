/**
 * @module A remote embedder's stand-in: an OpenAI-compatible /embeddings endpoint answering with hashing
 * vectors after a fixed delay, so a benchmark measures the service's own cost beside a remote model's latency.
 */
import { createServer } from 'node:http';
import { HashingEmbedder } from '../../src/embedding/hashing/hashing-embedder.js';

export interface EmbedderStandIn {
  /** The `baseUrl` an openai-compatible embedding section points at (…/v1). */
  readonly baseUrl: string;
  /** Embedding requests answered so far. */
  readonly calls: number;
  close(): void;
}

/** Starts the stand-in on a free loopback port: `dimensions`-d vectors, each answer after `delayMs`. */
export async function startEmbedderStandIn(delayMs: number, dimensions: number): Promise<EmbedderStandIn> {
  const hashing = new HashingEmbedder({ dimensions });
  let calls = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      calls += 1;
      const input = (JSON.parse(body) as { input: string[] }).input;
      setTimeout(() => {
        const data = input.map((text, index) => ({ index, embedding: Array.from(hashing.embedOne(text)) }));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data, model: 'stand-in' }));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    get calls() {
      return calls;
    },
    close: () => server.close(),
  };
}
