/**
 * @module A decorator that makes an embedder read all of every text: a text longer than the model's input
 * window is embedded in windows that fit, and their vectors are pooled (mean, then L2-normalized), so a
 * chunk's vector covers the whole chunk instead of its first ~128 tokens (USE-lite) or a refused request.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { EmbedOptions, Embedder, InputWindow } from './embedder.js';
import { ProviderError } from '../errors/memory-pool-error.js';
import { poolMean } from './pool-mean.js';
import { MAX_CHARS_PER_TOKEN, splitIntoWindows } from './split-into-windows.js';

/**
 * The most windows of a recall query the model is asked for: its vector reads the query's first 4 windows
 * (USE-lite: 512 tokens, ~1,800 characters of chat; a remote model's window is far larger than any query).
 * A 20 kB query was ~45 windows, and a few of them at once made ordinary queries time out; what a query's
 * opening windows do not say, its words still do, since the lexical ranking reads the whole text.
 */
export const QUERY_MAX_WINDOWS = 4;

/** Wraps `inner`; same model and dimensions, so collections written before stay searchable. */
export class WindowedEmbedder implements Embedder {
  readonly #inner: Embedder;
  /** Reads any length: a windowed embedder wrapped again passes texts straight through. */
  readonly inputWindow: InputWindow;

  constructor(inner: Embedder) {
    this.#inner = inner;
    this.inputWindow = {
      maxTokens: Number.POSITIVE_INFINITY,
      countTokens: (text) => inner.inputWindow.countTokens(text),
    };
  }

  get model(): string {
    return this.#inner.model;
  }

  get dimensions(): number | undefined {
    return this.#inner.dimensions;
  }

  /** The window the wrapped model really reads (what this decorator splits to). */
  get modelWindow(): InputWindow {
    return this.#inner.inputWindow;
  }

  get runtime(): string | undefined {
    return this.#inner.runtime;
  }

  /** A text the tokenizer cannot count can never be embedded: it fails alone instead of its whole batch. */
  #split(text: string): string[] {
    try {
      return splitIntoWindows(text, this.#inner.inputWindow);
    } catch (error) {
      throw new ProviderError(
        'embedding_failed',
        `could not count the tokens of a ${text.length}-character text for ${this.model}: ${(error as Error).message}`,
        { retryable: false, cause: error },
      );
    }
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (options.query === true && texts.length === 1) return [await this.#embedQuery(texts[0]!, options)];
    const windowsPerText: string[][] = [];
    for (const text of texts) {
      windowsPerText.push(this.#split(text));
      // Counting tokens is synchronous CPU work (~ms per chunk for USE-lite): let /save and /retrieve in.
      if (texts.length > 1) await yieldToEventLoop();
    }
    const flat = windowsPerText.flat();
    // Each text fits as one window (perhaps less its blank tail): embed those as they are.
    if (flat.length === texts.length) return this.#inner.embed(flat, options);
    const vectors = await this.#inner.embed(flat, options);
    const pooled: Float32Array[] = [];
    let next = 0;
    for (const windows of windowsPerText) {
      const own = vectors.slice(next, next + windows.length);
      next += windows.length;
      pooled.push(own.length === 1 ? own[0]! : poolMean(own));
    }
    return pooled;
  }

  /**
   * A recall query's vector, from at most its first QUERY_MAX_WINDOWS windows, sent as one call the model
   * knows is a query. Only a prefix that could fill them is tokenized, so a 20 kB query costs no more CPU.
   */
  async #embedQuery(text: string, options: EmbedOptions): Promise<Float32Array> {
    const { maxTokens } = this.#inner.inputWindow;
    const prefix = Number.isFinite(maxTokens)
      ? text.slice(0, QUERY_MAX_WINDOWS * Math.max(64, maxTokens * MAX_CHARS_PER_TOKEN))
      : text;
    const windows = this.#split(prefix).slice(0, QUERY_MAX_WINDOWS);
    const vectors = await this.#inner.embed(windows, options);
    return vectors.length === 1 ? vectors[0]! : poolMean(vectors);
  }

  probe(): Promise<void> {
    return this.#inner.probe();
  }
}
