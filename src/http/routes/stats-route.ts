/** @module `GET /bots/{bot}/stats`: what a bot's memory holds (retrieve scope: it reads no memory text). */
import type { Hono } from 'hono';
import type { ServiceDeps } from '../../core/service-deps.js';
import type { ServiceEnv } from '../service-env.js';

export function registerStatsRoute(app: Hono<ServiceEnv>, deps: ServiceDeps): void {
  app.get('/bots/:bot/stats', async (c) =>
    c.json(await deps.operations.stats(c.get('principal'), c.req.param('bot'))),
  );
}
