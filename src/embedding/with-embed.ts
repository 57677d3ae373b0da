/**
 * @module `withEmbed`: an Embedder that is `inner` with another `embed` (a decorator that meters, times or
 * guards the calls), the model's facts read through to `inner` so they follow it (a lazily learned size).
 */
import type { Embedder } from './embedder.js';

/** `inner`, its `embed` replaced by `embed`; every other member reads `inner`'s at the time it is read. */
export function withEmbed(inner: Embedder, embed: Embedder['embed']): Embedder {
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
    embed,
    probe: () => inner.probe(),
  };
}
