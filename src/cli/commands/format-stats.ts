/**
 * @module `memory-pool stats`'s two renderings of the one stats reader (src/core/read-bot-stats.ts): the
 * terminal table and the `--json` figures, both as the command has always printed them.
 */
import type { BotStats } from '../../core/read-bot-stats.js';
import { countNoun } from '../../runtime/count-noun.js';

/** SillyTavern's points (no source in their payload), as the table and `--json` name them. */
export const UNSOURCED = '(none: SillyTavern)';

/** One bot's figures as `memory-pool stats --json` prints them. */
export interface CliBotStats {
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
  /** Only while a rename pass runs (docs/people.md): chunks left to rewrite under linked names. */
  readonly renaming?: { readonly chunksLeft: number; readonly accountsWaiting: number };
}

/** The reader's figures in the command's own shape. */
export function toCliStats(stats: BotStats): CliBotStats {
  const pointsBySource: Record<string, number> = { ...stats.points.bySource };
  const { total, unsourced } = stats.points;
  const known = unsourced + Object.values(pointsBySource).reduce((a, b) => a + b, 0);
  if (unsourced > 0) pointsBySource[UNSOURCED] = unsourced;
  // Points of a source this journal has no messages of (another machine's, a restore without its rows).
  if (total > known) pointsBySource['(other)'] = total - known;
  const { span } = stats;
  return {
    bot: stats.bot,
    collection: stats.collection,
    model: stats.model,
    pointsBySource,
    points: total,
    messagesBySource: stats.messages.bySource,
    pending: stats.messages.pending,
    forgotten: stats.messages.forgotten,
    oldest: span ? new Date(span.oldestMs).toISOString() : null,
    newest: span ? new Date(span.newestMs).toISOString() : null,
    ...(stats.renaming === undefined ? {} : { renaming: stats.renaming }),
  };
}
/** The figures as a terminal table: one row per bot and source, then the bot's totals. */
export function formatStatsTable(stats: readonly CliBotStats[]): string {
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
      `${s.bot}: model ${s.model ?? 'not recorded'}, ${countNoun(s.pending, 'message')} pending, ${s.forgotten} forgotten, ` +
      `memories from ${s.oldest ?? '-'} to ${s.newest ?? '-'}${describeRenaming(s.renaming)}`,
  );
  return `${[...table, '', ...details].join('\n')}\n`;
}

/** The rename pass's line, while one runs. */
function describeRenaming(renaming: CliBotStats['renaming']): string {
  if (renaming === undefined) return '';
  const waiting =
    renaming.accountsWaiting === 0
      ? ''
      : ` (and the chunks of ${countNoun(renaming.accountsWaiting, 'account')} not counted yet)`;
  return `; renaming after a link change: ${countNoun(renaming.chunksLeft, 'chunk')} left to rewrite${waiting}`;
}
