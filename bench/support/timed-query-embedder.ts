/**
 * @module A query embedder that records how long each short query's vector took (the model pool's queue wait
 * and the worker's compute, seen from the service's thread), so a benchmark can split a recall's time into
 * its embedding and the rest (store searches and the service's own thread).
 */
import type { EmbedOptions, Embedder } from '../../src/embedding/embedder.js';
import { withEmbed } from '../../src/embedding/with-embed.js';

/** `inner` with the wall time of each one-text call shorter than `shortChars` pushed onto `times`. */
export function timeShortQueries(inner: Embedder, times: number[], shortChars = 200): Embedder {
  return withEmbed(inner, async (texts: readonly string[], options?: EmbedOptions) => {
    const started = performance.now();
    const vectors = await inner.embed(texts, options);
    if (texts.length === 1 && texts[0]!.length < shortChars) times.push(performance.now() - started);
    return vectors;
  });
}
