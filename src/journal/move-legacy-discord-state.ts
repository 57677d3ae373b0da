/**
 * @module Upgrades from a memory-pool that kept the Discord state in its own `discord.sqlite` beside the
 * journal: its rows (every bot's) are copied into the journal once, then the file is renamed so it is never
 * read again. A crash between the two copies it again, harmlessly: no row it holds is lost or doubled, and
 * a channel rule the journal already has is kept (it was set later). Replicas sharing a dataDir take turns
 * through a journal lease; a move that fails keeps the file for the next start and never ends this one.
 */
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import type { Logger } from '../logging/logger.js';
import { createHolderId } from '../runtime/holder-id.js';
import { type HeldLease, holdLease } from './hold-lease.js';
import type { Journal } from './journal.js';
import type { ChannelRule } from './journal-discord.js';

const MOVE_LEASE = 'discord-legacy-move';
/** How long a start waits for another replica's move (a few rows: seconds at most) before giving up. */
const WAIT_FOR_MOVE_MS = 30_000;

/** What the file is renamed to once its rows are in the journal (kept, not deleted: a way back). */
export const MOVED_SUFFIX = '.moved-to-journal';

/**
 * Copies `dataDir/discord.sqlite` into the journal and renames it; does nothing when there is none. Never
 * rejects: a failure is logged as a warning, and the file stays for the next start to move.
 */
export async function moveLegacyDiscordState(
  dataDir: string,
  journal: Journal,
  logger: Logger,
): Promise<void> {
  const path = join(dataDir, 'discord.sqlite');
  if (!existsSync(path)) return;
  try {
    await moveUnderLease(path, journal, logger);
  } catch (error) {
    logger.warn(
      { err: error, file: path },
      'discord: could not move discord.sqlite into the journal; the file is kept and the next start tries again (its opt-outs, forgets and channel rules are not applied until then)',
    );
  }
}

async function moveUnderLease(path: string, journal: Journal, logger: Logger): Promise<void> {
  const lease = await waitForLease(journal);
  try {
    // Another replica sharing this dataDir may have moved it while this one waited.
    if (!existsSync(path)) return;
    // Read-write, so a WAL left by a crash is recovered rather than missed; the timeout waits out a reader.
    const db = new BetterSqlite3(path, { fileMustExist: true, timeout: 5000 });
    let rows: number;
    try {
      rows = await copyRows(db, journal);
    } finally {
      db.close();
    }
    // The rename is the "done" mark, so it waits until the journal holds the rows durably.
    await journal.flush();
    try {
      renameSync(path, `${path}${MOVED_SUFFIX}`);
    } catch (error) {
      // A replica that shares the dataDir but not the journal lease (an older build) finished it first.
      const gone = (error as NodeJS.ErrnoException).code === 'ENOENT' && existsSync(`${path}${MOVED_SUFFIX}`);
      if (!gone) throw error;
    }
    logger.info(
      { rows, file: `discord.sqlite${MOVED_SUFFIX}` },
      'discord: moved discord.sqlite into the journal',
    );
  } finally {
    await lease.release();
  }
}

/** Takes the move's lease, waiting while another replica holds it. */
async function waitForLease(journal: Journal): Promise<HeldLease> {
  const holder = createHolderId();
  const giveUpAt = Date.now() + WAIT_FOR_MOVE_MS;
  for (;;) {
    const lease = await holdLease(journal.leases, MOVE_LEASE, holder);
    if (lease !== undefined) return lease;
    if (Date.now() > giveUpAt) throw new Error(`another replica held the ${MOVE_LEASE} lease for 30 s`);
    await sleep(200);
  }
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
