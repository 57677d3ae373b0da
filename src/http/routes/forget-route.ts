/** @module `POST /forget` (forget scope) and `GET /admin/forget-log` (admin scope). */
import type { Hono } from 'hono';
import {
  type ForgetLogEntry,
  type ForgetLogResponse,
  forgetRequestSchema,
} from '../../wire/forget-request.js';
import { ValidationError } from '../../errors/memory-pool-error.js';
import { authorize } from '../../auth/api-key-auth.js';
import { forgetPermissions } from '../../auth/forget-permissions.js';
import { readJsonBody } from '../read-json-body.js';
import type { ServiceDeps, ServiceEnv } from '../service-deps.js';
import { requireBot } from './require-bot.js';

export function registerForgetRoutes(app: Hono<ServiceEnv>, deps: ServiceDeps): void {
  app.post('/forget', async (c) => {
    const request = await readJsonBody(c, forgetRequestSchema);
    const bot = requireBot(deps.config, request.bot);
    const principal = c.get('principal');
    authorize(principal, { operation: 'forget', bot: bot.name });
    return c.json(await deps.forget(bot, request, forgetPermissions(principal)));
  });

  app.get('/admin/forget-log', (c) => {
    const botName = c.req.query('bot');
    const bot = botName === undefined ? undefined : requireBot(deps.config, botName);
    const principal = c.get('principal');
    authorize(principal, { operation: 'admin', bot: bot?.name ?? '*' });
    const limitText = c.req.query('limit') ?? '100';
    const limit = Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      throw new ValidationError('limit', `limit: expected an integer from 1 to 1000, got "${limitText}"`);
    }
    const entries = deps.journal.forgetting.listAudit({ ...(bot ? { bot: bot.name } : {}), limit });
    const body: ForgetLogResponse = { entries: entries as unknown as ForgetLogEntry[] };
    return c.json(body);
  });
}
