/** @module An Embedder decorator that counts calls and times them in the service metrics. */
import type { EmbedOptions, Embedder } from '../embedding/embedder.js';
import { withEmbed } from '../embedding/with-embed.js';
import type { ServiceMetrics } from './service-metrics.js';

/** Wraps `inner`; every call is counted by outcome (ok, error) under `purpose`, and timed. */
export function meterEmbedder(
  inner: Embedder,
  metrics: ServiceMetrics,
  purpose: 'chunk' | 'query',
): Embedder {
  return withEmbed(inner, async (texts: readonly string[], options?: EmbedOptions) => {
    const started = performance.now();
    try {
      const vectors = await inner.embed(texts, options);
      metrics.embedCalls.inc({ purpose, outcome: 'ok' });
      return vectors;
    } catch (error) {
      metrics.embedCalls.inc({ purpose, outcome: 'error' });
      throw error;
    } finally {
      metrics.embedDuration.observe({ purpose }, (performance.now() - started) / 1000);
    }
  });
}
