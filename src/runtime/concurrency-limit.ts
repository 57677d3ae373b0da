/**
 * @module A bound on tasks running at once: at most `limit` run, the rest wait in the order they came. The
 * remote embedder sends its requests through one, so a backlog's batches go to the endpoint side by side
 * instead of one round trip after another, without opening a request per batch.
 */

export class ConcurrencyLimit {
  readonly #limit: number;
  #running = 0;
  /** Tasks waiting for a slot, first come first served. */
  readonly #waiting: Array<() => void> = [];

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`limit must be an integer >= 1, got ${limit}`);
    this.#limit = limit;
  }

  /** How many tasks hold a slot now. */
  get running(): number {
    return this.#running;
  }

  /** Runs `task` once a slot is free; resolves or rejects as it does, and frees the slot either way. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#limit) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#running += 1;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so a task arriving meanwhile cannot jump the line.
      const next = this.#waiting.shift();
      if (next === undefined) this.#running -= 1;
      else next();
    }
  }
}
