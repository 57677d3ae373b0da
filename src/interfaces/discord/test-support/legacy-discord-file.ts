/** @module A `discord.sqlite` as the memory-pool before the journal held the Discord state wrote it. */
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

/** discord.sqlite as the version before the journal held it wrote it (and, `withKind` false, an earlier one). */
export function writeLegacyDiscordFile(dir: string, withKind: boolean): void {
  const old = new BetterSqlite3(join(dir, 'discord.sqlite'));
  old.exec(`
    CREATE TABLE opt_outs (bot TEXT NOT NULL, user_id TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (bot, user_id));
    CREATE TABLE channel_rules (bot TEXT NOT NULL, channel_id TEXT NOT NULL, rule TEXT NOT NULL, PRIMARY KEY (bot, channel_id));
    CREATE TABLE backfilled (bot TEXT NOT NULL, channel_id TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (bot, channel_id));
    CREATE TABLE threads (bot TEXT NOT NULL, thread_id TEXT NOT NULL, parent_id TEXT NOT NULL, PRIMARY KEY (bot, thread_id));
    INSERT INTO opt_outs VALUES ('mythos', 'ana', 5), ('other', 'bo', 6);
    INSERT INTO channel_rules VALUES ('mythos', 'offtopic', 'allow'), ('mythos', 'secret', 'deny');
    INSERT INTO backfilled VALUES ('mythos', 'general', 7);
    INSERT INTO threads VALUES ('mythos', 't-old', 'general');`);
  if (withKind) {
    old.exec(`ALTER TABLE threads ADD COLUMN public INTEGER;
      INSERT INTO threads VALUES ('mythos', 't-public', 'general', 1);
      CREATE TABLE forgotten_before (bot TEXT NOT NULL, kind TEXT NOT NULL, id TEXT NOT NULL, at INTEGER NOT NULL,
        PRIMARY KEY (bot, kind, id));
      INSERT INTO forgotten_before VALUES ('mythos', 'user', 'sam', 100);`);
  }
  old.close();
}
