/**
 * @module Upgrades from a memory-pool that kept the Discord state in its own `discord.sqlite` beside the
 * journal: its rows (every bot's) are copied into the journal once, then the file is renamed so it is never
 * read again. A crash between the two copies it again, harmlessly: no row it holds is lost or doubled, and
 * a channel rule the journal already has is kept (it was set later).
 */
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import type { Logger } from '../logging/logger.js';
import type { Journal } from './journal.js';
import type { ChannelRule } from './journal-discord.js';

/** What the file is renamed to once its rows are in the journal (kept, not deleted: a way back). */
export const MOVED_SUFFIX = '.moved-to-journal';

/** Copies `dataDir/discord.sqlite` into the journal and renames it; does nothing when there is none. */
export async function moveLegacyDiscordState(
  dataDir: string,
  journal: Journal,
  logger: Logger,
): Promise<void> {
  const path = join(dataDir, 'discord.sqlite');
  if (!existsSync(path)) return;
  // Read-write, so a WAL left by a crash is recovered rather than missed.
  const db = new BetterSqlite3(path, { fileMustExist: true });
  let rows: number;
  try {
    rows = await copyRows(db, journal);
  } finally {
    db.close();
  }
  // The rename is the "done" mark, so it waits until the journal holds the rows durably.
  await journal.flush();
  renameSync(path, `${path}${MOVED_SUFFIX}`);
  logger.info(
    { rows, file: `discord.sqlite${MOVED_SUFFIX}` },
    'discord: moved discord.sqlite into the journal',
  );
}

async function copyRows(db: Database, journal: Journal): Promise<number> {
  const tables = new Set(
    (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
      (t) => t.name,
    ),
  );
  const all = <T>(table: string, sql: string): T[] =>
    tables.has(table) ? (db.prepare(sql).all() as T[]) : [];
  const optOuts = all<{ bot: string; user_id: string; at: number }>('opt_outs', 'SELECT * FROM opt_outs');
  const rules = all<{ bot: string; channel_id: string; rule: ChannelRule }>(
    'channel_rules',
    'SELECT * FROM channel_rules',
  );
  const backfilled = all<{ bot: string; channel_id: string; at: number }>(
    'backfilled',
    'SELECT * FROM backfilled',
  );
  const forgotten = all<{ bot: string; kind: 'user' | 'channel'; id: string; at: number }>(
    'forgotten_before',
    'SELECT * FROM forgotten_before',
  );
  // `public` came later: a file from before it has threads of unknown kind.
  const threads = all<{ bot: string; thread_id: string; parent_id: string; public?: number | null }>(
    'threads',
    'SELECT * FROM threads',
  );
  await journal.transaction(async (tx) => {
    for (const r of optOuts) await tx.discord.setOptedOut(r.bot, r.user_id, true, r.at);
    const bots = new Set(rules.map((r) => r.bot));
    const ruled = new Set<string>();
    for (const bot of bots)
      for (const r of (await tx.discord.readState(bot)).channelRules) ruled.add(`${bot}\u0000${r.channelId}`);
    for (const r of rules)
      if (!ruled.has(`${r.bot}\u0000${r.channel_id}`))
        await tx.discord.setChannelRule(r.bot, r.channel_id, r.rule);
    for (const r of backfilled) await tx.discord.markBackfilled(r.bot, r.channel_id, r.at);
    for (const r of forgotten) await tx.discord.noteForgotten(r.bot, r.kind, r.id, r.at);
    for (const r of threads)
      await tx.discord.noteThread(
        r.bot,
        r.thread_id,
        r.parent_id,
        r.public === undefined || r.public === null ? undefined : r.public === 1,
      );
  });
  return optOuts.length + rules.length + backfilled.length + forgotten.length + threads.length;
}
