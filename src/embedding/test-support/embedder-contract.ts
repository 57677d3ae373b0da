/**
 * @module The behavior every Embedder must show, as a node:test suite. Each implementation's tests call
 * `describeEmbedderContract` with a factory; add a new embedder and run it through this to know it fits.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Embedder } from '../embedder.js';

export interface ContractSubject {
  readonly embedder: Embedder;
  /** Frees whatever the factory started (a fake server, say). */
  readonly close?: () => Promise<void>;
}

const TEXTS = [
  'I left my umbrella at the office.',
  'Alice plays the cello on Sundays.',
  'Rain is expected tomorrow.',
];

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** Registers the contract tests for the embedder `create` returns (called once, before the tests). */
export function describeEmbedderContract(name: string, create: () => Promise<ContractSubject>): void {
  describe(`Embedder contract: ${name}`, () => {
    let subject: ContractSubject;
    before(async () => {
      subject = await create();
    });
    after(() => subject.close?.());

    test('probe resolves when the provider works', async () => {
      await subject.embedder.probe();
    });

    test('declares the input window it reads and counts tokens in it', () => {
      const { maxTokens, countTokens } = subject.embedder.inputWindow;
      assert.ok(maxTokens > 0, 'a positive window (Infinity when any length is read)');
      const short = countTokens(TEXTS[0]!);
      assert.ok(short >= 1 && short <= TEXTS[0]!.length + 1, `a sentence counts as ${short} tokens`);
      assert.ok(countTokens(TEXTS.join(' ')) > short, 'more text, more tokens');
    });

    test('returns one finite unit-or-consistent vector per text, of the reported dimensions', async () => {
      const vectors = await subject.embedder.embed(TEXTS);
      assert.equal(vectors.length, TEXTS.length);
      const dimensions = subject.embedder.dimensions;
      assert.ok(dimensions !== undefined && dimensions > 0, 'dimensions are known after a call');
      for (const vector of vectors) {
        assert.ok(vector instanceof Float32Array);
        assert.equal(vector.length, dimensions);
        assert.ok(vector.every(Number.isFinite));
      }
    });

    test('gives a text the same vector whatever its position or batch-mates', async () => {
      const together = await subject.embedder.embed(TEXTS);
      const [alone] = await subject.embedder.embed([TEXTS[2]!]);
      // Near, not bit-identical: USE-lite's sums run in a different order for other batch shapes (~1e-7).
      assert.equal(alone!.length, together[2]!.length);
      assert.ok(
        alone!.every((value, i) => Math.abs(value - together[2]![i]!) < 1e-5),
        'same vector alone as in a batch',
      );
      assert.ok(dot(together[0]!, together[1]!) < dot(together[0]!, together[0]!) - 1e-3, 'texts differ');
    });

    test('returns [] for no texts', async () => {
      assert.deepEqual(await subject.embedder.embed([]), []);
    });

    test('names its model as <provider>:<model>', () => {
      assert.match(subject.embedder.model, /^[a-z-]+:.+/);
    });
  });
}
