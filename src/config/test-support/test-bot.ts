/** @module The bot (and vector size) tests configure: small chunks, a long idle time, every other default. */
import type { ChunkSizes } from '../../chunking/memory-message.js';
import type { BotConfig } from '../config-types.js';

export const TEST_DIMENSIONS = 64;

/** What a test may change of a bot; chunk sizes not given keep testBot's. */
export type TestBotOverrides = Omit<Partial<BotConfig>, 'chunk'> & { readonly chunk?: Partial<ChunkSizes> };

/**
 * A bot with small chunk sizes and a long idle time: tests flush explicitly with `writer.runOnce({ flush: true })`.
 * The time gap that closes a chunk is the product's default (30 minutes).
 */
export function testBot(name: string, overrides: TestBotOverrides = {}): BotConfig {
  const { chunk, ...rest } = overrides;
  return {
    name,
    selfSpeaker: 'Mythos',
    collection: `mem_${name}`,
    defaultSource: 'api',
    speakerAliases: {},
    timezone: 'UTC',
    retrieve: { limit: 5, scoreThreshold: 0.1, scope: 'global' },
    ...rest,
    chunk: { minChars: 120, maxChars: 200, idleMs: 60_000, maxGapMs: 1_800_000, ...chunk },
  };
}
