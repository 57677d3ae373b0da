/**
 * @module The one stats reader: what a bot's memory holds in the collection it uses now, from the store's
 * counts and the journal. `GET /bots/{bot}/stats` and Discord's `/memory stats` render it as the wire's
 * JSON (toStatsResponse), `memory-pool stats` as a table (src/cli/commands/format-stats.ts).
 */
import type { BotConfig } from '../config/config-types.js';
import type { Journal } from '../journal/journal.js';
import type { PointStore } from '../store/point-store.js';
import { allOf, matchValue, unsourcedPoints } from '../store/store-filters.js';
import type { BotStatsResponse } from '../wire/stats-response.js';

/** The figures of one bot: the wire's, and the span of the messages the journal holds (the CLI shows it). */
export interface BotStats extends BotStatsResponse {
  readonly points: BotStatsResponse['points'] & { readonly bySource: Readonly<Record<string, number>> };
  /** The oldest and newest message memory-pool holds for the bot (Unix ms); undefined with none. */
  readonly span: { readonly oldestMs: number; readonly newestMs: number } | undefined;
}

/** One bot's counts in `collection` (the live one: BotCollections answers it). */
export async function readBotStats(
  deps: { readonly store: PointStore; readonly journal: Journal },
  bot: BotConfig,
  collection: string,
): Promise<BotStats> {
  const { store, journal } = deps;
  const counts = await journal.botCounts(bot.name);
  const sources = Object.keys(counts.bySource);
  const [recorded, span, renames] = await Promise.all([
    journal.collectionModel(collection),
    journal.memorySpan(bot.name),
    journal.renames.progress(),
  ]);
  const renaming = renames.find((progress) => progress.bot === bot.name);
  const [total, unsourced, ...perSource] = await Promise.all([
    store.countPoints(collection),
    store.countPoints(collection, unsourcedPoints()),
    ...sources.map((source) => store.countPoints(collection, allOf(matchValue('source', source)))),
  ]);
  return {
    bot: bot.name,
    collection,
    model: recorded?.model ?? null,
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
    ...(renaming === undefined
      ? {}
      : { renaming: { chunksLeft: renaming.chunksLeft, accountsWaiting: renaming.accountsWaiting } }),
    span,
  };
}

/** The figures as `GET /bots/{bot}/stats` publishes them (field for field, in this order). */
export function toStatsResponse(stats: BotStats): BotStatsResponse {
  const { bot, collection, model, points, messages, chunks, renaming } = stats;
  return {
    bot,
    collection,
    model,
    points,
    messages,
    chunks,
    ...(renaming === undefined ? {} : { renaming }),
  };
}
