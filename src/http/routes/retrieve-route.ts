/** @module `POST /retrieve`: the best stored chunks for a query, plus the ready-to-inject block. */
import type { Hono } from 'hono';
import type { ServiceDeps } from '../../core/service-deps.js';
import { retrieveRequestSchema } from '../../wire/retrieve-request.js';
import { readJsonBody } from '../read-json-body.js';
import type { ServiceEnv } from '../service-env.js';

export function registerRetrieveRoute(app: Hono<ServiceEnv>, deps: ServiceDeps): void {
  app.post('/retrieve', async (c) => {
    const request = await readJsonBody(c, retrieveRequestSchema);
    return c.json(await deps.operations.retrieve(c.get('principal'), request.bot, request, c.req.raw.signal));
  });
}
