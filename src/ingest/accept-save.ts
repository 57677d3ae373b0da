/** @module A save once the caller is authorized: journal the window, count it, wake the chunk writer. */
import type { BotConfig, MemoryPoolConfig } from '../config/config-types.js';
import type { Journal } from '../journal/journal.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { SaveRequest, SaveResponse } from '../wire/save-request.js';
import { saveMessages } from './save-messages.js';

/** What a save touches. */
export interface AcceptSaveDeps {
  readonly journal: Journal;
  readonly config: MemoryPoolConfig;
  readonly metrics: Pick<ServiceMetrics, 'messagesSaved'>;
  /** Tells the chunk writer new messages are waiting. */
  wakeWriter(): void;
}

/** The work of `POST /save`, which in-process interfaces (Discord) call too, so both save alike. */
export async function acceptSave(
  deps: AcceptSaveDeps,
  bot: BotConfig,
  request: SaveRequest,
  source: string,
): Promise<SaveResponse> {
  const result = await saveMessages(deps.journal, request, {
    config: deps.config,
    bot,
    source,
    arrivedAt: Date.now(),
  });
  deps.metrics.messagesSaved.inc({ bot: bot.name, result: 'accepted' }, result.accepted);
  deps.metrics.messagesSaved.inc({ bot: bot.name, result: 'duplicate' }, result.duplicates);
  if (result.accepted > 0 || result.edited > 0) deps.wakeWriter();
  return result;
}
