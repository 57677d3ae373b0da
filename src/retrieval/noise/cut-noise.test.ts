import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RecallHit } from '../recall-hit.js';
import { cutNoise, type NoiseCutSettings, type NoiseCutSources, startNoiseCut } from './cut-noise.js';

const SETTINGS = { share: 0.12, score: 0.6 };
const hit = (score: number, text: string, ranks?: { dense: number; words: number }): RecallHit => ({
  id: text,
  score,
  text,
  speakers: 'Helen',
  timestamp: 0,
  messageIds: text,
  messageCount: 1,
  ...(ranks
    ? {
        explain: {
          mode: 'hybrid' as const,
          fused: 1,
          signals: {
            part_dense: { rank: ranks.dense, score },
            part_lexical: { rank: ranks.words, score: 3 },
          },
          parts: [],
        },
      }
    : {}),
});
/** Sources whose store holds only `held` and whose model maps the question without its unsaid words to `rest`. */
const sources = (held: string[], rest: number[], asked: string[] = []): NoiseCutSources => ({
  queryText: 'What did Helen say about her submarine trip?',
  findHeldTerms: async (terms) => {
    asked.push(...terms);
    return new Set(terms.filter((term) => held.includes(term)));
  },
  embedQuery: async (text) => {
    asked.push(`embed:${text}`);
    return rest;
  },
});
const VECTOR = [1, 0];
const run = (hits: readonly RecallHit[], settings: NoiseCutSettings, from: NoiseCutSources) =>
  cutNoise(hits, settings, startNoiseCut(from), VECTOR);
const weak = [hit(0.45, 'Helen: I said hello'), hit(0.4, 'Helen: a sunny day')];

test('cut: unsaid words carry enough of the meaning, nothing matches closely, the rankings disagree', async () => {
  const asked: string[] = [];
  const outcome = await run(weak, SETTINGS, sources(['helen', 'sai'], [0.8, 0.6], asked));
  assert.deepEqual(outcome.hits, []);
  assert.deepEqual(outcome.cut?.unsaidWords, ['submarine', 'trip']);
  assert.ok(Math.abs(outcome.cut!.share - 0.2) < 1e-9);
  assert.deepEqual(asked, ['helen', 'sai', 'submarin', 'trip', 'embed:What did Helen say about her ?']);
});

test('kept: a share below the setting', async () => {
  const outcome = await run(weak, SETTINGS, sources(['helen', 'sai'], [0.99, 0.14]));
  assert.equal(outcome.hits, weak);
  assert.equal(outcome.cut, undefined);
});

test('kept without waiting for the started questions: a close match, or a best hit near the top of both rankings', {
  timeout: 5_000,
}, async () => {
  const never = { unsaidWords: new Promise<never>(() => {}), rest: new Promise<never>(() => {}) };
  const close = [hit(0.3, 'Helen: a'), hit(0.61, 'Helen: b')];
  assert.equal((await cutNoise(close, SETTINGS, never, VECTOR)).hits, close);
  const agreed = [hit(0.45, 'Helen: a', { dense: 2, words: 1 }), ...weak];
  assert.equal((await cutNoise(agreed, SETTINGS, never, VECTOR)).hits, agreed);
  // Ranked third by words: no agreement, so the cut reads the started questions.
  const apart = [hit(0.45, 'Helen: a', { dense: 1, words: 3 }), ...weak];
  assert.deepEqual((await run(apart, SETTINGS, sources(['helen'], [0, 1]))).hits, []);
});

test('a failed lookup (no parts index) finds nothing unsaid: no cut', async () => {
  const failing: NoiseCutSources = {
    ...sources([], [0, 1]),
    findHeldTerms: async () => {
      throw new Error('collection_missing');
    },
  };
  assert.equal((await run(weak, SETTINGS, failing)).hits, weak);
});

test('every word unsaid is the whole question: share 1, and no embedding of an empty text', async () => {
  const asked: string[] = [];
  const all = { ...sources([], [0, 1], asked), queryText: 'submarine kayak' };
  const outcome = await run(weak, SETTINGS, all);
  assert.deepEqual(outcome.cut, { unsaidWords: ['submarine', 'kayak'], share: 1 });
  assert.ok(!asked.some((entry) => entry.startsWith('embed:')));
});

test('a share of 0 is off, and no hits stay no hits', async () => {
  assert.equal((await run(weak, { ...SETTINGS, share: 0 }, sources([], [0, 1]))).hits, weak);
  assert.deepEqual((await run([], SETTINGS, sources([], [0, 1]))).hits, []);
});
