/** @module Creates and fills collections for contract tests over raw HTTP, failing loudly if the setup itself fails. */
import { expectOk } from './expect-envelope.js';
import type { ContractTarget } from './target.js';

/** A point as written in a `{"points": [...]}` upsert body. */
export interface SeedPoint {
  readonly id: number | string;
  /** A plain array (the unnamed vector) or named dense / sparse vectors. */
  readonly vector?: readonly number[] | Readonly<Record<string, unknown>>;
  readonly payload?: Record<string, unknown>;
}

/** Creates a fresh single-vector collection and returns its name. */
export async function createCollection(
  target: ContractTarget,
  prefix: string,
  size = 4,
  distance: 'Cosine' | 'Dot' | 'Euclid' | 'Manhattan' = 'Cosine',
): Promise<string> {
  const name = target.uniqueCollection(prefix);
  expectOk(await target.http('PUT', `/collections/${name}`, { vectors: { size, distance } }));
  return name;
}

/** Upserts points with `wait=true`, so reads right after see them on a real Qdrant too. */
export async function upsertPoints(target: ContractTarget, name: string, points: readonly SeedPoint[]) {
  return expectOk(await target.http('PUT', `/collections/${name}/points?wait=true`, { points }));
}

/** Creates a collection holding `points`. */
export async function seedCollection(
  target: ContractTarget,
  prefix: string,
  points: readonly SeedPoint[],
  size = 4,
  distance: 'Cosine' | 'Dot' | 'Euclid' | 'Manhattan' = 'Cosine',
): Promise<string> {
  const name = await createCollection(target, prefix, size, distance);
  if (points.length > 0) await upsertPoints(target, name, points);
  return name;
}

/** Retries an assertion until it passes: a real Qdrant applies `wait=false` writes asynchronously. */
export async function eventually(check: () => Promise<void>, attempts = 50): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      await check();
      return;
    } catch (error) {
      if (i >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
