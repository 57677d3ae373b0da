/**
 * @module People and link codes in the SQLite journal (tables of schema step 3), synchronous: the journal
 * port runs it through its queue and fsyncs the WAL after each write outside a transaction. Each change of
 * links or names requests, in its own transaction, the rename of the chunks it touches (sqlite-renames.ts).
 */
import type { Database } from 'better-sqlite3';
import type {
  AccountKey,
  DmChannel,
  FailedRedeems,
  LinkCodeRow,
  LinkConflict,
  PeopleWriteOptions,
  PersonRow,
  RedeemAttempt,
  SeenAccount,
} from '../journal-people.js';
import { accountsToRename, touchedAccounts } from '../journal-renames.js';
import {
  type AccountRow,
  canRedeem,
  failureKeys,
  groupSeenAccounts,
  journaledUserIds,
  type LinkCodeTableRow,
  type PersonTableRow,
  type SeenRow,
  sortDmChannels,
  toLinkCode,
  toPeople,
} from '../people-rows.js';
import { requestSqliteRenames } from './sqlite-renames.js';

/**
 * The DM channels of one user id (every linked person's DM recall reads it). Named index: without statistics
 * SQLite walks every message of the bot by the primary key instead (a DM recall's whole read of the journal,
 * three of these: 7.1 ms unhinted vs 0.6 ms at 20,000 messages, growing with the bot's history; load 9-10,
 * bench/person-dms.bench.ts).
 */
export const DM_CHANNELS_SQL = `SELECT DISTINCT source, channel_id FROM messages INDEXED BY messages_by_user
  WHERE bot = ? AND user_id = ? AND is_dm = 1 AND channel_id IS NOT NULL AND (? IS NULL OR source = ?)`;

/** Each method is one statement, or one transaction. */
export class SqlitePeople {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  list(bot: string): PersonRow[] {
    return this.#read(bot, undefined);
  }

  get(bot: string, id: string): PersonRow | undefined {
    return this.#read(bot, id)[0];
  }

  personOf(bot: string, account: AccountKey): PersonRow | undefined {
    const row = this.#db
      .prepare('SELECT person_id FROM person_accounts WHERE bot = ? AND kind = ? AND value = ?')
      .get(bot, account.kind, account.value) as { person_id: string } | undefined;
    return row === undefined ? undefined : this.get(bot, row.person_id);
  }

  create(
    bot: string,
    person: { id: string; name: string; accounts: readonly AccountKey[] },
    now: number,
    options: PeopleWriteOptions = {},
  ): LinkConflict | undefined {
    return this.#db.transaction(() => {
      const conflict = this.#conflict(bot, person.id, person.accounts);
      if (conflict !== undefined) return conflict;
      this.#db
        .prepare('INSERT INTO people (bot, person_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
        .run(bot, person.id, person.name, now, now);
      this.#link(bot, person.id, person.accounts, now);
      requestSqliteRenames(this.#db, bot, accountsToRename(person.accounts, options.namesUnchanged), now);
      return undefined;
    })();
  }

  update(
    bot: string,
    id: string,
    change: { name?: string; add?: readonly AccountKey[]; remove?: readonly AccountKey[] },
    now: number,
    options: PeopleWriteOptions = {},
  ): LinkConflict | boolean {
    return this.#db.transaction((): LinkConflict | boolean => {
      const before = this.get(bot, id);
      if (before === undefined) return false;
      const conflict = this.#conflict(bot, id, change.add ?? []);
      if (conflict !== undefined) return conflict;
      for (const account of change.remove ?? []) {
        this.#db
          .prepare('DELETE FROM person_accounts WHERE bot = ? AND kind = ? AND value = ? AND person_id = ?')
          .run(bot, account.kind, account.value, id);
      }
      this.#link(bot, id, change.add ?? [], now);
      this.#db
        .prepare('UPDATE people SET name = coalesce(?, name), updated_at = ? WHERE bot = ? AND person_id = ?')
        .run(change.name ?? null, now, bot, id);
      const touched = touchedAccounts(before.accounts, change);
      requestSqliteRenames(this.#db, bot, accountsToRename(touched, options.namesUnchanged), now);
      return true;
    })();
  }

  remove(bot: string, id: string, now: number): boolean {
    return this.#db.transaction(() => {
      const before = this.get(bot, id);
      if (before !== undefined) requestSqliteRenames(this.#db, bot, before.accounts, now);
      this.#db.prepare('DELETE FROM person_accounts WHERE bot = ? AND person_id = ?').run(bot, id);
      return this.#db.prepare('DELETE FROM people WHERE bot = ? AND person_id = ?').run(bot, id).changes > 0;
    })();
  }

  dmChannels(bot: string, accounts: readonly AccountKey[]): DmChannel[] {
    const query = this.#db.prepare(DM_CHANNELS_SQL);
    const rows = journaledUserIds(accounts).flatMap(
      ({ userId, source }) =>
        query.all(bot, userId, source, source) as { source: string; channel_id: string }[],
    );
    return sortDmChannels(rows);
  }

  seenAccounts(bot: string): SeenAccount[] {
    const rows = this.#db
      .prepare(
        `SELECT source, user_id, speaker_name, COUNT(*) AS n, MAX(ts) AS last FROM messages
         WHERE bot = ? AND speaker_kind = 'user' GROUP BY source, user_id, speaker_name`,
      )
      .all(bot) as SeenRow[];
    return groupSeenAccounts(rows);
  }

  saveLinkCode(row: LinkCodeRow, now: number): void {
    this.#db.prepare('DELETE FROM link_codes WHERE expires_at < ?').run(now - 86_400_000);
    this.#db
      .prepare(
        'INSERT INTO link_codes (code_hash, bot, kind, value, expires_at, used_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(row.codeHash, row.bot, row.account.kind, row.account.value, row.expiresAt, row.usedAt);
  }

  releaseLinkCode(codeHash: string, usedAt: number): void {
    this.#db
      .prepare('UPDATE link_codes SET used_at = NULL WHERE code_hash = ? AND used_at = ?')
      .run(codeHash, usedAt);
  }

  getLinkCode(codeHash: string): LinkCodeRow | undefined {
    const row = this.#db
      .prepare('SELECT bot, kind, value, expires_at, used_at FROM link_codes WHERE code_hash = ?')
      .get(codeHash) as LinkCodeTableRow | undefined;
    return row === undefined ? undefined : toLinkCode(codeHash, row);
  }

  useLinkCode(
    codeHash: string,
    redeemer: { bot: string; account: AccountKey },
    now: number,
  ): LinkCodeRow | undefined {
    return this.#db.transaction(() => {
      const row = this.#db
        .prepare('SELECT bot, kind, value, expires_at, used_at FROM link_codes WHERE code_hash = ?')
        .get(codeHash) as
        | { bot: string; kind: AccountKey['kind']; value: string; expires_at: number; used_at: number | null }
        | undefined;
      if (row === undefined) return undefined;
      const code: LinkCodeRow = {
        codeHash,
        bot: row.bot,
        account: { kind: row.kind, value: row.value },
        expiresAt: row.expires_at,
        usedAt: row.used_at,
      };
      if (canRedeem(code, redeemer, now)) {
        this.#db.prepare('UPDATE link_codes SET used_at = ? WHERE code_hash = ?').run(now, codeHash);
      }
      return code;
    })();
  }

  noteFailedRedeem(attempt: RedeemAttempt, now: number, since: number): FailedRedeems {
    return this.#db.transaction(() => {
      // Every bot's stale failures: rows only come in here, so the table holds one window at most.
      this.#db.prepare('DELETE FROM link_failures WHERE at < ?').run(since);
      const { byAccount } = failureKeys(attempt);
      this.#db
        .prepare('INSERT INTO link_failures (bot, kind, value, at) VALUES (?, ?, ?, ?)')
        .run(attempt.bot, byAccount.kind, byAccount.value, now);
      return this.failedRedeems(attempt, since);
    })();
  }

  failedRedeems(attempt: RedeemAttempt, since: number): FailedRedeems {
    const { byAccount, callerPrefix } = failureKeys(attempt);
    const account = this.#db
      .prepare('SELECT COUNT(*) AS n FROM link_failures WHERE bot = ? AND kind = ? AND value = ? AND at >= ?')
      .get(attempt.bot, byAccount.kind, byAccount.value, since) as { n: number };
    const caller = this.#db
      .prepare(
        `SELECT COUNT(DISTINCT value) AS n FROM link_failures
         WHERE bot = ? AND kind = 'account' AND substr(value, 1, ?) = ? AND at >= ?`,
      )
      .get(attempt.bot, callerPrefix.length, callerPrefix, since) as { n: number };
    return { byAccount: account.n, byCaller: caller.n };
  }

  #read(bot: string, id: string | undefined): PersonRow[] {
    const filter = id === undefined ? '' : ' AND person_id = ?';
    const args = id === undefined ? [bot] : [bot, id];
    const people = this.#db
      .prepare(`SELECT person_id, name, created_at, updated_at FROM people WHERE bot = ?${filter}`)
      .all(...args) as PersonTableRow[];
    const accounts = this.#db
      .prepare(`SELECT person_id, kind, value FROM person_accounts WHERE bot = ?${filter}`)
      .all(...args) as AccountRow[];
    return toPeople(people, accounts);
  }

  /** The first of `accounts` linked to a person other than `id`. */
  #conflict(bot: string, id: string, accounts: readonly AccountKey[]): LinkConflict | undefined {
    for (const account of accounts) {
      const owner = this.personOf(bot, account);
      if (owner !== undefined && owner.id !== id) {
        return { account, person: { id: owner.id, name: owner.name } };
      }
    }
    return undefined;
  }

  #link(bot: string, id: string, accounts: readonly AccountKey[], now: number): void {
    const insert = this.#db.prepare(
      'INSERT OR IGNORE INTO person_accounts (bot, kind, value, person_id, linked_at) VALUES (?, ?, ?, ?, ?)',
    );
    for (const account of accounts) insert.run(bot, account.kind, account.value, id, now);
  }
}
