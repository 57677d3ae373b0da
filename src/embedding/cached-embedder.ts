/**
 * @module A decorator that remembers recent query embeddings, so a repeated /retrieve query skips the
 * provider (latency, cost, rate limits) and identical concurrent queries share one provider call.
 */

import { raceAbort } from '../runtime/abort-deadline.js';
import type { Embedder, EmbedOptions, InputWindow } from './embedder.js';

export interface CachedEmbedderOptions {
  /** Most vectors kept; the least recently used goes first (default 1000, about 12 MB at 3072-d). */
  readonly maxEntries?: number;
}

/** Hit/miss counts since start, for metrics. */
export interface EmbeddingCacheStats {
  readonly hits: number;
  readonly misses: number;
  readonly size: number;
}

/** Wraps `inner`; same model and dimensions, so it can stand anywhere an Embedder does. */
export class CachedEmbedder implements Embedder {
  readonly #inner: Embedder;
  readonly #maxEntries: number;
  /** Map iteration order is insertion order: re-inserting on hit makes the first key the least recent. */
  readonly #vectors = new Map<string, Float32Array>();
  readonly #inFlight = new Map<string, Promise<Float32Array>>();
  #hits = 0;
  #misses = 0;

  constructor(inner: Embedder, options: CachedEmbedderOptions = {}) {
    this.#inner = inner;
    this.#maxEntries = Math.max(0, options.maxEntries ?? 1000);
  }

  get model(): string {
    return this.#inner.model;
  }

  get dimensions(): number | undefined {
    return this.#inner.dimensions;
  }

  get inputWindow(): InputWindow {
    return this.#inner.inputWindow;
  }

  get modelWindow(): InputWindow | undefined {
    return this.#inner.modelWindow;
  }

  get runtime(): string | undefined {
    return this.#inner.runtime;
  }

  get stats(): EmbeddingCacheStats {
    return { hits: this.#hits, misses: this.#misses, size: this.#vectors.size };
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    const pending = new Map<string, Promise<Float32Array>>();
    const missing: string[] = [];
    for (const text of texts) {
      if (pending.has(text)) continue;
      const cached = this.#vectors.get(text);
      if (cached) {
        this.#hits++;
        this.#vectors.delete(text);
        this.#vectors.set(text, cached);
        pending.set(text, Promise.resolve(cached));
        continue;
      }
      const shared = this.#inFlight.get(text);
      if (shared) {
        this.#hits++;
        pending.set(text, shared);
        continue;
      }
      this.#misses++;
      missing.push(text);
    }
    if (missing.length > 0) this.#startFetch(missing, pending, options.query === true);
    // Each caller waits with its own signal; the provider call is not aborted, since others may share it.
    const vectors = await raceAbort(Promise.all([...pending.values()]), options.signal);
    const byText = new Map([...pending.keys()].map((text, i) => [text, vectors[i]!]));
    // Copies, so a caller that scales or normalizes its vector in place cannot corrupt the cache.
    return texts.map((text) => byText.get(text)!.slice());
  }

  probe(): Promise<void> {
    return this.#inner.probe();
  }

  #startFetch(missing: string[], pending: Map<string, Promise<Float32Array>>, query: boolean): void {
    const batch = this.#inner.embed(missing, query ? { query } : {});
    missing.forEach((text, i) => {
      const one = batch.then((vectors) => {
        const vector = vectors[i]!;
        this.#remember(text, vector);
        return vector;
      });
      const settled = one.finally(() => this.#inFlight.delete(text));
      // The in-flight entry is awaited only by later callers; keep its rejection from going unhandled.
      settled.catch(() => {});
      this.#inFlight.set(text, settled);
      pending.set(text, one);
    });
  }

  #remember(text: string, vector: Float32Array): void {
    if (this.#maxEntries === 0) return;
    this.#vectors.set(text, vector);
    while (this.#vectors.size > this.#maxEntries) {
      const oldest = this.#vectors.keys().next().value as string;
      this.#vectors.delete(oldest);
    }
  }
}
