/** @module The embedder port: turns texts into vectors; every provider (remote, offline, hashing) implements it. */

/** Per-call options; `signal` lets a caller that gave up (client disconnected) stop waiting and retrying. */
export interface EmbedOptions {
  readonly signal?: AbortSignal;
  /**
   * The text is a recall query: its vector reads at most QUERY_MAX_WINDOWS windows (WindowedEmbedder), and a
   * local model runs it ahead of bulk work, one window at a time, taking turns with other queries.
   */
  readonly query?: boolean;
}

/**
 * How much of one text an embedder reads. Models read a bounded number of tokens and drop (or refuse) the
 * rest; WindowedEmbedder uses this to embed longer texts in windows that fit, so nothing is cut silently.
 */
export interface InputWindow {
  /** The most tokens one input may hold; `Infinity` for an embedder that reads any length. */
  readonly maxTokens: number;
  /** The tokens `text` takes for this model: its own tokenizer, or an estimate that never counts low. */
  countTokens(text: string): number;
}

/** Something that turns texts into fixed-length vectors. Vectors from different `model`s must never be compared. */
export interface Embedder {
  /**
   * Identity recorded on collections, `<provider>:<model>`, e.g. "openai-compatible:text-embedding-3-large"
   * or "offline:use-lite-512": a collection made by one model cannot be searched with another.
   */
  readonly model: string;
  /** Vector length: known up front when configured or fixed by the model, otherwise after the first call. */
  readonly dimensions: number | undefined;
  /** The input window the model reads; text past it would not reach the vector. */
  readonly inputWindow: InputWindow;
  /**
   * The window of the model itself when this embedder reads longer texts by embedding windows of them and
   * pooling (WindowedEmbedder, and decorators around it); undefined when `inputWindow` is the model's.
   */
  readonly modelWindow?: InputWindow | undefined;
  /**
   * What computes the vectors, for a provider that can run on more than one runtime (the offline model:
   * `onnxruntime`, or `tfjs` and why); undefined for the others, and until the model has loaded.
   */
  readonly runtime?: string | undefined;
  /** One vector per text, in the order given; `[]` for no texts. Throws ProviderError. */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /** Cheap reachability check for GET /ready; resolves when the provider can embed, else throws ProviderError. */
  probe(): Promise<void>;
}
