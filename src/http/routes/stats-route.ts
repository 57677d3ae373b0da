/** @module `GET /bots/{bot}/stats`: what a bot's memory holds (retrieve scope: it reads no memory text). */
import type { Hono } from 'hono';
import { authorize } from '../../auth/api-key-auth.js';
import type { BotConfig } from '../../config/config-types.js';
import { allOf, matchValue, unsourcedPoints } from '../../store/store-filters.js';
import type { BotStatsResponse } from '../../wire/stats-response.js';
import type { ServiceDeps, ServiceEnv } from '../service-deps.js';
import { requireBot } from './require-bot.js';

export function registerStatsRoute(app: Hono<ServiceEnv>, deps: ServiceDeps): void {
  app.get('/bots/:bot/stats', async (c) => {
    const bot = requireBot(deps.config, c.req.param('bot'));
    authorize(c.get('principal'), { operation: 'retrieve', bot: bot.name });
    return c.json(await readBotStats(deps, bot));
  });
}

/** What the stats route answers for one bot (the Discord interface's `/memory stats` reads it too). */
export async function readBotStats(
  deps: Pick<ServiceDeps, 'store' | 'journal'>,
  bot: BotConfig,
): Promise<BotStatsResponse> {
  const counts = deps.journal.botCounts(bot.name);
  const sources = Object.keys(counts.bySource);
  const [total, unsourced, ...perSource] = await Promise.all([
    deps.store.countPoints(bot.collection),
    deps.store.countPoints(bot.collection, unsourcedPoints()),
    ...sources.map((source) => deps.store.countPoints(bot.collection, allOf(matchValue('source', source)))),
  ]);
  const body: BotStatsResponse = {
    bot: bot.name,
    collection: bot.collection,
    model: deps.journal.collectionModel(bot.collection)?.model ?? null,
    points: {
      total: total!,
      unsourced: unsourced!,
      bySource: Object.fromEntries(sources.map((source, i) => [source, perSource[i]!])),
    },
    messages: {
      bySource: counts.bySource,
      pending: counts.pending,
      oldestPendingAt: counts.oldestPendingAt,
      forgotten: counts.forgotten,
    },
    chunks: { planned: counts.planned, stored: counts.stored },
  };
  return body;
}
