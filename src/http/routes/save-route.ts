/** @module `POST /save`: journal a client's window and answer at once; chunking happens in the background. */
import type { Hono } from 'hono';
import type { BotConfig } from '../../config/config-types.js';
import { type SaveRequest, type SaveResponse, saveRequestSchema } from '../../wire/save-request.js';
import { saveMessages } from '../../ingest/save-messages.js';
import { authorize, principalSource } from '../../auth/api-key-auth.js';
import { readJsonBody } from '../read-json-body.js';
import type { ServiceEnv, ServiceDeps } from '../service-deps.js';
import { requireBot } from './require-bot.js';

/** The work of `/save` once the caller is authorized: journal, count, wake the writer. In-process interfaces call it too. */
export async function acceptSave(
  deps: Pick<ServiceDeps, 'journal' | 'config' | 'metrics' | 'wakeWriter'>,
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

export function registerSaveRoute(app: Hono<ServiceEnv>, deps: ServiceDeps): void {
  app.post('/save', async (c) => {
    const request = await readJsonBody(c, saveRequestSchema);
    const bot = requireBot(deps.config, request.bot);
    const principal = c.get('principal');
    const source = request.source ?? principalSource(principal) ?? bot.defaultSource;
    authorize(principal, { operation: 'save', bot: bot.name, source });
    return c.json(await acceptSave(deps, bot, request, source));
  });
}
