/** @module `POST /forget` (forget scope) and `GET /admin/forget-log` (admin scope). */
import type { Hono } from 'hono';
import type { ServiceDeps } from '../../core/service-deps.js';
import { forgetRequestSchema } from '../../wire/forget-request.js';
import { readJsonBody } from '../read-json-body.js';
import type { ServiceEnv } from '../service-env.js';

export function registerForgetRoutes(app: Hono<ServiceEnv>, deps: ServiceDeps): void {
  app.post('/forget', async (c) => {
    const request = await readJsonBody(c, forgetRequestSchema);
    return c.json(await deps.operations.forget(c.get('principal'), request.bot, request));
  });

  app.get('/admin/forget-log', async (c) =>
    c.json(await deps.operations.forgetLog(c.get('principal'), c.req.query('bot'), c.req.query('limit'))),
  );
}
