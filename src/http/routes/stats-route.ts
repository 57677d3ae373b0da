/** @module `GET /bots/{bot}/stats`: what a bot's memory holds (retrieve scope: it reads no memory text). */
import type { Hono } from 'hono';
import { authorize } from '../../auth/api-key-auth.js';
import { readBotStats } from '../../maintenance/read-bot-stats.js';
import type { ServiceDeps, ServiceEnv } from '../service-deps.js';
import { requireBot } from './require-bot.js';

export function registerStatsRoute(app: Hono<ServiceEnv>, deps: ServiceDeps): void {
  app.get('/bots/:bot/stats', async (c) => {
    const bot = requireBot(deps.config, c.req.param('bot'));
    authorize(c.get('principal'), { operation: 'retrieve', bot: bot.name });
    return c.json(await readBotStats(deps, bot));
  });
}
