/** @module The per-bot MCP resource's content: the bot's memory stats plus whether the service is ready. */
import type { BotStatsResponse } from '../../wire/stats-response.js';
import type { MemoryBackend } from './memory-backend.js';

export interface BotStatus {
  readonly bot: string;
  readonly healthy: boolean;
  readonly ready: boolean;
  readonly checks?: Readonly<Record<string, { readonly ok: boolean; readonly error?: string }>>;
  /** Points, messages by source and queue depth; absent when the service could not say. */
  readonly stats?: BotStatsResponse;
  readonly error?: string;
}

/** Asks the service; an unreachable service is a status (healthy: false), not a failed read. */
export async function describeBotStatus(backend: MemoryBackend, bot: string): Promise<BotStatus> {
  try {
    await backend.health();
    const [ready, stats] = await Promise.all([backend.ready(), backend.stats(bot)]);
    return { bot, healthy: true, ready: ready.ready, checks: ready.checks, stats };
  } catch (error) {
    return { bot, healthy: false, ready: false, error: (error as Error).message };
  }
}
