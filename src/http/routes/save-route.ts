/** @module `POST /save`: journal a client's window and answer at once; chunking happens in the background. */
import type { Hono } from 'hono';
import { authorize, principalSource } from '../../auth/api-key-auth.js';
import { acceptSave } from '../../ingest/accept-save.js';
import { saveRequestSchema } from '../../wire/save-request.js';
import { readJsonBody } from '../read-json-body.js';
import type { ServiceDeps, ServiceEnv } from '../service-deps.js';
import { requireBot } from './require-bot.js';

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
