/**
 * @module A query embedder that records how long each short query's vector took (the model pool's queue wait
 * and the worker's compute, seen from the service's thread), so a benchmark can split a recall's time into
 * its embedding and the rest (store searches and the service's own thread).
 */
import type { EmbedOptions, Embedder } from '../../src/embedding/embedder.js';

/** `inner` with the wall time of each one-text call shorter than `shortChars` pushed onto `times`. */
export function timeShortQueries(inner: Embedder, times: number[], shortChars = 200): Embedder {
  return {
    get model() {
      return inner.model;
    },
    get dimensions() {
      return inner.dimensions;
    },
    get inputWindow() {
      return inner.inputWindow;
    },
    get modelWindow() {
      return inner.modelWindow;
    },
    get runtime() {
      return inner.runtime;
    },
    async embed(texts: readonly string[], options?: EmbedOptions) {
      const started = performance.now();
      const vectors = await inner.embed(texts, options);
      if (texts.length === 1 && texts[0]!.length < shortChars) times.push(performance.now() - started);
      return vectors;
    },
    probe: () => inner.probe(),
  };
}
