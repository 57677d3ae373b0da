/**
 * @module A test embedder with knobs: the hashing embedder made slow, failing, or refusing some inputs on
 * demand, recording its calls and the aborts it saw, so tests can put the service in a race on purpose.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ProviderError } from '../../errors/memory-pool-error.js';
import type { EmbedOptions, Embedder } from '../embedder.js';
import { HashingEmbedder } from '../hashing/hashing-embedder.js';

export class ScriptedEmbedder implements Embedder {
  readonly #inner: HashingEmbedder;
  readonly model: string;
  readonly dimensions: number;
  get inputWindow() {
    return this.#inner.inputWindow;
  }
  /** Each call waits this long first (abortable through the call's signal). */
  delayMs = 0;
  /** Each call fails as a provider outage (retryable). */
  failing = false;
  /** A call with any text this returns true for is refused, as a provider refuses an over-long input. */
  refuse: (text: string) => boolean = () => false;
  /** Number of texts per call, in call order. */
  readonly calls: number[] = [];
  /** How many calls were aborted while waiting. */
  aborts = 0;

  constructor(dimensions: number) {
    this.#inner = new HashingEmbedder({ dimensions });
    this.model = this.#inner.model;
    this.dimensions = dimensions;
  }

  async probe(): Promise<void> {}

  /** Resolves once `condition` holds (polled every 5 ms, for at most 10 s): tests wait on events, not on time. */
  async until(condition: () => boolean): Promise<void> {
    for (let waited = 0; !condition(); waited += 5) {
      if (waited > 10_000) throw new Error('ScriptedEmbedder.until: the condition never held');
      await sleep(5);
    }
  }

  async embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]> {
    this.calls.push(texts.length);
    if (this.delayMs > 0) {
      try {
        await sleep(this.delayMs, undefined, options?.signal ? { signal: options.signal } : {});
      } catch (error) {
        this.aborts += 1;
        throw error;
      }
    }
    if (this.failing)
      throw new ProviderError('embedding_failed', 'the embedder is down', { retryable: true });
    if (texts.some(this.refuse)) {
      throw new ProviderError('embedding_failed', 'the provider refused the input (HTTP 413)', {
        retryable: false,
      });
    }
    return this.#inner.embed(texts);
  }
}
