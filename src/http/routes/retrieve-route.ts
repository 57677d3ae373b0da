/** @module `POST /retrieve`: the best stored chunks for a query, plus the ready-to-inject block. */
import type { Hono } from 'hono';
import { retrieveRequestSchema } from '../../wire/retrieve-request.js';
import { authorize } from '../../auth/api-key-auth.js';
import { readJsonBody } from '../read-json-body.js';
import type { ServiceEnv, ServiceDeps } from '../service-deps.js';
import { requireBot } from './require-bot.js';

export function registerRetrieveRoute(app: Hono<ServiceEnv>, deps: ServiceDeps): void {
  app.post('/retrieve', async (c) => {
    const request = await readJsonBody(c, retrieveRequestSchema);
    const bot = requireBot(deps.config, request.bot);
    authorize(c.get('principal'), { operation: 'retrieve', bot: bot.name });
    const response = await deps.retrieve(bot, request, c.req.raw.signal);
    deps.metrics.recallHits.observe({ bot: bot.name }, response.hits.length);
    return c.json(response);
  });
}
