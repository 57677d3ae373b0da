/** @module What a bot's memory holds, as `GET /bots/{bot}/stats` answers (the Discord `/memory stats` reads it too). */
import type { BotConfig } from '../config/config-types.js';
import type { MessageJournal } from '../journal/message-journal.js';
import type { PointStore } from '../store/point-store.js';
import { allOf, matchValue, unsourcedPoints } from '../store/store-filters.js';
import type { BotStatsResponse } from '../wire/stats-response.js';

/** One bot's counts from the store and the journal, for its configured collection. */
export async function readBotStats(
  deps: { readonly store: PointStore; readonly journal: MessageJournal },
  bot: BotConfig,
): Promise<BotStatsResponse> {
  const counts = deps.journal.botCounts(bot.name);
  const sources = Object.keys(counts.bySource);
  const [total, unsourced, ...perSource] = await Promise.all([
    deps.store.countPoints(bot.collection),
    deps.store.countPoints(bot.collection, unsourcedPoints()),
    ...sources.map((source) => deps.store.countPoints(bot.collection, allOf(matchValue('source', source)))),
  ]);
  return {
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
}
