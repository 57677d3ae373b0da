/**
 * @module The stand-in's server, in its own thread: answers `POST /embeddings` after the delay, in base64
 * float32 when asked with `encoding_format: "base64"` (as OpenAI does), else as lists of numbers.
 */
import { createServer } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { HashingEmbedder } from '../../src/embedding/hashing/hashing-embedder.js';

const { delayMs, dimensions, dense } = workerData as { delayMs: number; dimensions: number; dense: boolean };
const hashing = new HashingEmbedder({ dimensions });

/** The hashing vector, with every component set when `dense` (small deterministic values, then renormalized). */
function embed(text: string): Float32Array {
  const vector = hashing.embedOne(text);
  if (!dense) return vector;
  let norm = 0;
  for (let i = 0; i < vector.length; i++) {
    vector[i] = vector[i]! + (((i * 2654435761) % 1000) - 500) / 50_000;
    norm += vector[i]! * vector[i]!;
  }
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! * scale;
  return vector;
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      input: string[];
      encoding_format?: string;
    };
    setTimeout(() => {
      const data = body.input.map((text, index) => {
        const vector = embed(text);
        const embedding =
          body.encoding_format === 'base64'
            ? Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64')
            : Array.from(vector);
        return { index, embedding };
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data, model: 'stand-in' }));
    }, delayMs);
  });
});
server.listen(0, '127.0.0.1', () => {
  parentPort!.postMessage((server.address() as { port: number }).port);
});
