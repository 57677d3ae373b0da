/**
 * @module The on-disk vectors read lately, kept for the next read: one recall reads some parts twice (its dense
 * search's best, then the cosines of the parts its lexical search found), and a question asked again reads the
 * same ones. Bounded by bytes (least recently read first out); keyed by the slot owner, which every write
 * replaces, so a vector rewritten or deleted is never served from here, only aged out.
 */

/** RAM the cache may hold per dense vector name: 4,096 vectors of 512 dimensions. */
const CACHE_BYTES = 8 * 2 ** 20;

/** Recently read vectors by owner. */
export class RecentVectors<Owner> {
  readonly #vectors = new Map<Owner, Float32Array>();
  readonly #capacity: number;

  constructor(dim: number) {
    this.#capacity = Math.max(64, Math.floor(CACHE_BYTES / (dim * 4)));
  }

  /** Each owner's vector, from here or, for those not here, from one `read` call; the result is not to be written. */
  read(
    owners: readonly Owner[],
    read: (owners: readonly Owner[]) => (Float32Array | undefined)[],
  ): (Float32Array | undefined)[] {
    const found = new Array<Float32Array | undefined>(owners.length);
    const missing: Owner[] = [];
    const missingAt: number[] = [];
    owners.forEach((owner, i) => {
      const vector = this.#vectors.get(owner);
      if (vector === undefined) {
        missing.push(owner);
        missingAt.push(i);
        return;
      }
      // Read again: to the back of the queue.
      this.#vectors.delete(owner);
      this.#vectors.set(owner, vector);
      found[i] = vector;
    });
    if (missing.length === 0) return found;
    read(missing).forEach((vector, j) => {
      found[missingAt[j] as number] = vector;
      if (vector !== undefined) this.#remember(missing[j] as Owner, vector);
    });
    return found;
  }

  /** Forgets everything (the vectors are back in RAM). */
  clear(): void {
    this.#vectors.clear();
  }

  #remember(owner: Owner, vector: Float32Array): void {
    this.#vectors.set(owner, vector);
    if (this.#vectors.size <= this.#capacity) return;
    const oldest = this.#vectors.keys().next();
    if (oldest.done !== true) this.#vectors.delete(oldest.value);
  }
}
