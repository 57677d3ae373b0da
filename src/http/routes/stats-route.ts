/** @module `GET /bots/{bot}/stats`: what a bot's memory holds (retrieve scope: it reads no memory text). */
import type { Hono } from 'hono';
import type { BotStatsResponse } from '../../wire/stats-response.js';
import { authorize } from '../../auth/api-key-auth.js';
import type { ServiceDeps, ServiceEnv } from '../service-deps.js';
import { requireBot } from './require-bot.js';
import { unsourcedPoints } from '../../store/store-filters.js';

export function registerStatsRoute(app: Hono<ServiceEnv>, deps: ServiceDeps): void {
  app.get('/bots/:bot/stats', async (c) => {
    const bot = requireBot(deps.config, c.req.param('bot'));
    authorize(c.get('principal'), { operation: 'retrieve', bot: bot.name });
    const [total, unsourced] = await Promise.all([
      deps.store.countPoints(bot.collection),
      deps.store.countPoints(bot.collection, unsourcedPoints()),
    ]);
    const counts = deps.journal.botCounts(bot.name);
    const body: BotStatsResponse = {
      bot: bot.name,
      collection: bot.collection,
      model: deps.journal.collectionModel(bot.collection)?.model ?? null,
      points: { total, unsourced },
      messages: { bySource: counts.bySource, pending: counts.pending, forgotten: counts.forgotten },
      chunks: { planned: counts.planned, stored: counts.stored },
    };
    return c.json(body);
  });
}
