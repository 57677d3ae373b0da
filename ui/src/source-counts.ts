/**
 * @module The sources a bot's memories come from, with how many memories each wrote, for the timeline's source
 * filter: read from `GET /bots/{bot}/stats` (points by source), which the service already answers.
 */
import { useEffect, useState } from 'preact/hooks';
import type { BotStatsResponse } from '../../src/wire/stats-response.js';
import type { WhoamiResponse } from '../../src/wire/viewer.js';
import { botPath, getJson } from './api.js';
import { can } from './session.js';

/** One source and the memories it wrote. */
export interface SourceCount {
  readonly source: string;
  readonly memories: number;
}

/**
 * Sources with memories, most first (ties by name). Every one, even for a key limited to some sources: those
 * limit what it may write and forget, while its timeline shows the bot's memories from every source.
 */
export function listSourceCounts(stats: BotStatsResponse): SourceCount[] {
  return Object.entries(stats.points.bySource ?? {})
    .filter(([, memories]) => memories > 0)
    .map(([source, memories]) => ({ source, memories }))
    .sort((a, b) => b.memories - a.memories || a.source.localeCompare(b.source));
}

/**
 * The bot's sources, read again whenever `version` changes (after a forget); null while unknown or when the
 * key may not read stats (the filter then stays a text box).
 */
export function useSourceCounts(bot: string, who: WhoamiResponse, version: number): SourceCount[] | null {
  // Kept with the bot they were read for, so another bot's sources are never offered.
  const [read, setRead] = useState<{ bot: string; counts: SourceCount[] | null } | null>(null);
  const allowed = can(who, 'retrieve');
  useEffect(() => {
    if (!allowed) return;
    let current = true;
    getJson<BotStatsResponse>(botPath(bot, 'stats')).then(
      (stats) => current && setRead({ bot, counts: listSourceCounts(stats) }),
      () => current && setRead({ bot, counts: null }),
    );
    return () => {
      current = false;
    };
  }, [bot, allowed, version]);
  return allowed && read?.bot === bot ? read.counts : null;
}
