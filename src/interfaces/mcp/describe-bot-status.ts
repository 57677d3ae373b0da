/** @module The per-bot MCP resource's content. The service has no stats endpoint yet, so this is name plus health/ready. */
import type { MemoryBackend } from './memory-backend.js';

export interface BotStatus {
  readonly bot: string;
  readonly healthy: boolean;
  readonly ready: boolean;
  readonly checks?: Readonly<Record<string, { readonly ok: boolean; readonly error?: string }>>;
  readonly error?: string;
}

/** Asks the service; an unreachable service is a status (healthy: false), not a failed read. */
export async function describeBotStatus(backend: MemoryBackend, bot: string): Promise<BotStatus> {
  try {
    await backend.health();
    const ready = await backend.ready();
    return { bot, healthy: true, ready: ready.ready, checks: ready.checks };
  } catch (error) {
    return { bot, healthy: false, ready: false, error: (error as Error).message };
  }
}
