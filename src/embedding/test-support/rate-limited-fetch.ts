/**
 * @module A fake OpenAI-compatible endpoint allowing one request per window: any other request in the window
 * gets a 429 with Retry-After (the window), like a provider's per-key rate limit.
 */
import type { FetchLike } from '../openai-compatible/post-embeddings.js';

export interface RateLimitedFetch {
  readonly fetch: FetchLike;
  readonly stats: { requests: number; limited: number };
}

export function createRateLimitedFetch(windowMs: number, dimensions = 4): RateLimitedFetch {
  let nextFreeAt = 0;
  const stats = { requests: 0, limited: 0 };
  const fetchLike: FetchLike = async (_url, init) => {
    stats.requests += 1;
    const now = Date.now();
    if (now < nextFreeAt) {
      stats.limited += 1;
      return new Response('{"error":{"message":"rate limited"}}', {
        status: 429,
        headers: { 'retry-after': String(windowMs / 1000) },
      });
    }
    nextFreeAt = now + windowMs;
    const { input } = JSON.parse(String(init.body)) as { input: string[] };
    const data = input.map((_text, index) => ({
      index,
      embedding: Array.from({ length: dimensions }, (_, k) => (k + index + 1) / dimensions),
    }));
    return new Response(JSON.stringify({ data }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetch: fetchLike, stats };
}
