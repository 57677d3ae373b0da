/**
 * @module Recall through the chunk vectors alone, as st-qdrant-memory searches them (dense, chunk points
 * only): the stored vectors against the vectors of the same chunk texts embedded whole (windowed and pooled),
 * side by side in one run. Since chunk vectors may be derived from their parts' vectors (issue 27), this
 * shows that a SillyTavern query still finds what it found when every chunk was embedded again.
 */
import type { Embedder } from '../../src/embedding/embedder.js';
import { type BudgetHit, scoreAtBudget } from './evidence-recall.js';

interface ChunkPoint extends BudgetHit {
  readonly stored: Float32Array;
}

/** Every chunk point of `collection` with its vector, read through the store's Qdrant API. */
export async function readChunkPoints(storeUrl: string, collection: string): Promise<ChunkPoint[]> {
  const response = await fetch(`${storeUrl}/collections/${collection}/points/scroll`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ limit: 100_000, with_payload: ['messageIds', 'text'], with_vector: true }),
  });
  const body = (await response.json()) as {
    result: { points: { payload: { messageIds: string; text: string }; vector: number[] }[] };
  };
  return body.result.points.map((p) => ({
    messageIds: p.payload.messageIds,
    text: p.payload.text,
    stored: Float32Array.from(p.vector),
  }));
}

const dot = (a: Float32Array, b: Float32Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
};

/** Mean evidence recall per budget for both vector kinds: `{ stored, embeddedWhole }`, one number per budget. */
export async function scoreChunkVectors(
  embedder: Embedder,
  points: readonly ChunkPoint[],
  questions: readonly { readonly vector: Float32Array; readonly evidence: readonly string[] }[],
  budgets: readonly number[],
): Promise<{ stored: number[]; embeddedWhole: number[] }> {
  const whole = await embedder.embed(points.map((p) => p.text));
  const score = (vectorOf: (i: number) => Float32Array) =>
    budgets.map((budget) => {
      const total = questions.reduce((sum, question) => {
        const ranked = points
          .map((point, i) => ({ point, score: dot(question.vector, vectorOf(i)) }))
          .sort((a, b) => b.score - a.score)
          .map((r) => r.point);
        return sum + scoreAtBudget(ranked, question.evidence, budget).recall;
      }, 0);
      return total / Math.max(1, questions.length);
    });
  return { stored: score((i) => points[i]!.stored), embeddedWhole: score((i) => whole[i]!) };
}
