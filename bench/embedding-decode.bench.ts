/**
 * @module What reading a remote embedder's answer costs the service's event loop, per 3072-d vector of a real
 * model (every component set): the answer as lists of numbers (the API's default) against base64 float32
 * (`encoding_format: "base64"`, what memory-pool asks for), both read by readEmbeddingsResponse after
 * JSON.parse, as postEmbeddings does. The two alternate in each round; medians of the rounds are printed.
 * Run: node --import tsx bench/embedding-decode.bench.ts [--vectors 64 --rounds 15]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { readEmbeddingsResponse } from '../src/embedding/openai-compatible/read-embeddings-response.js';
import { seededRandom } from '../src/runtime/seeded-random.js';

const { values: args } = parseArgs({
  options: { vectors: { type: 'string', default: '64' }, rounds: { type: 'string', default: '15' } },
});
const COUNT = Number(args.vectors);
const DIMENSIONS = 3072;
const random = seededRandom(3);
const vectors = Array.from({ length: COUNT }, () => {
  const vector = new Float32Array(DIMENSIONS);
  for (let i = 0; i < DIMENSIONS; i++) vector[i] = (random() - 0.5) / 16;
  return vector;
});
const answer = (embedding: (v: Float32Array) => unknown) =>
  JSON.stringify({ data: vectors.map((v, index) => ({ index, embedding: embedding(v) })) });
const bodies = {
  floats: answer((v) => Array.from(v)),
  base64: answer((v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64')),
};
const timings: Record<keyof typeof bodies, number[]> = { floats: [], base64: [] };
for (let round = 0; round < Number(args.rounds); round++) {
  const order: Array<keyof typeof bodies> = round % 2 === 0 ? ['floats', 'base64'] : ['base64', 'floats'];
  for (const name of order) {
    const started = performance.now();
    const read = readEmbeddingsResponse(JSON.parse(bodies[name]), COUNT, 'bench');
    timings[name].push((performance.now() - started) / COUNT);
    // The two encodings must give the same vectors, bit for bit.
    if (read[COUNT - 1]![DIMENSIONS - 1] !== vectors[COUNT - 1]![DIMENSIONS - 1]) throw new Error('mismatch');
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
for (const name of ['floats', 'base64'] as const) {
  console.log(
    `${name.padEnd(6)}: ${(bodies[name].length / COUNT / 1024).toFixed(1)} kB of JSON per vector, ` +
      `read in ${(median(timings[name]) * 1000).toFixed(0)} µs per vector (median of ${args.rounds})`,
  );
}
console.log(
  `base64 reads ${(median(timings.floats) / median(timings.base64)).toFixed(1)}x faster ` +
    `(load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
);
