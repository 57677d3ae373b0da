/** @module `memory-pool stats`: what each bot's memory holds, from the store's counts and the journal. */
import type { BotConfig } from '../config/config-types.js';
import type { MessageJournal } from '../journal/message-journal.js';
import type { PointStore } from '../store/point-store.js';
import { allOf, matchValue, unsourcedPoints } from '../store/store-filters.js';

export interface BotStats {
  readonly bot: string;
  readonly collection: string;
  readonly model: string | null;
  /** Stored points by the source in their payload; SillyTavern's (no source) under `(none: SillyTavern)`. */
  readonly pointsBySource: Readonly<Record<string, number>>;
  readonly points: number;
  readonly messagesBySource: Readonly<Record<string, number>>;
  /** Messages not yet stored in a point (not cut into a chunk, or their chunk waiting for its write). */
  readonly pending: number;
  readonly forgotten: number;
  /** ISO dates of the oldest and newest message memory-pool holds; null with none. */
  readonly oldest: string | null;
  readonly newest: string | null;
}

export const UNSOURCED = '(none: SillyTavern)';

/** One bot's figures; the collection is the one in use (after a reembed switch, the new one). */
export async function collectBotStats(
  deps: { readonly store: PointStore; readonly journal: MessageJournal },
  bot: BotConfig,
): Promise<BotStats> {
  const { store, journal } = deps;
  const collection = journal.routes.activeCollection(bot.collection);
  const counts = journal.botCounts(bot.name);
  const sources = Object.keys(counts.bySource);
  const [points, unsourced, ...bySource] = await Promise.all([
    store.countPoints(collection),
    store.countPoints(collection, unsourcedPoints()),
    ...sources.map((source) => store.countPoints(collection, allOf(matchValue('source', source)))),
  ]);
  const pointsBySource: Record<string, number> = Object.fromEntries(
    sources.map((s, i) => [s, bySource[i] ?? 0]),
  );
  const known = unsourced + Object.values(pointsBySource).reduce((a, b) => a + b, 0);
  if (unsourced > 0) pointsBySource[UNSOURCED] = unsourced;
  // Points of a source this journal has no messages of (another machine's, a restore without its rows).
  if (points > known) pointsBySource['(other)'] = points - known;
  const span = journal.memorySpan(bot.name);
  return {
    bot: bot.name,
    collection,
    model: journal.collectionModel(collection)?.model ?? null,
    pointsBySource,
    points,
    messagesBySource: counts.bySource,
    pending: counts.pending,
    forgotten: counts.forgotten,
    oldest: span ? new Date(span.oldestMs).toISOString() : null,
    newest: span ? new Date(span.newestMs).toISOString() : null,
  };
}

/** The figures as a terminal table: one row per bot and source, then the bot's totals. */
export function formatStatsTable(stats: readonly BotStats[]): string {
  const rows: string[][] = [['bot', 'collection', 'source', 'points', 'messages']];
  for (const s of stats) {
    const sources = [
      ...new Set([...Object.keys(s.pointsBySource), ...Object.keys(s.messagesBySource)]),
    ].sort();
    for (const source of sources) {
      rows.push([
        s.bot,
        s.collection,
        source,
        String(s.pointsBySource[source] ?? 0),
        String(s.messagesBySource[source] ?? 0),
      ]);
    }
    rows.push([
      s.bot,
      s.collection,
      'total',
      String(s.points),
      String(Object.values(s.messagesBySource).reduce((a, b) => a + b, 0)),
    ]);
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i >= 3 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const table = [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)];
  const details = stats.map(
    (s) =>
      `${s.bot}: model ${s.model ?? 'not recorded'}, ${s.pending} messages pending, ${s.forgotten} forgotten, ` +
      `memories from ${s.oldest ?? '-'} to ${s.newest ?? '-'}`,
  );
  return `${[...table, '', ...details].join('\n')}\n`;
}
