/**
 * @module People and link codes in the SQLite journal (tables of schema step 3), synchronous: the journal
 * port runs it through its queue and fsyncs the WAL after each write outside a transaction. Each change of
 * links or names requests, in its own transaction, the rename of the chunks it touches (sqlite-renames.ts).
 */
import type { Database } from 'better-sqlite3';
import type {
  AccountKey,
  CodeAttempt,
  CodeAttemptPurpose,
  DmChannel,
  FailedRedeems,
  LinkCodeRow,
  LinkConflict,
  PeopleWriteOptions,
  PersonRow,
  RedeemAttempt,
  RedeemLimits,
  SeenAccount,
} from '../journal-people.js';
import { type ExactHolder, findNormalMatch, maybeUnnormalSql } from '../account-spelling.js';
import { accountsToRename, touchedAccounts } from '../journal-renames.js';
import {
  type AccountRow,
  canRedeem,
  failureKeys,
  groupSeenAccounts,
  isOverLimit,
  isWrongAttempt,
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
  WHERE bot = ? AND user_id = ? AND is_dm = 1 AND channel_id IS NOT NULL AND (? IS NULL OR source = ?)
  AND (? IS NULL OR source <> ?)`;

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
    const row =
      (this.#db
        .prepare('SELECT person_id FROM person_accounts WHERE bot = ? AND kind = ? AND value = ?')
        .get(bot, account.kind, account.value) as { person_id: string } | undefined) ??
      // Stored in an older spelling (account-spelling.ts): found now, not only after a restart respells it.
      findNormalMatch(
        this.#db
          .prepare(
            `SELECT person_id, kind, value FROM person_accounts WHERE bot = ? AND kind = ?
             AND ${maybeUnnormalSql("value GLOB '*[^!-~]*'")}`,
          )
          .all(bot, account.kind) as AccountRow[],
        account,
      );
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
    const holder = this.#db.prepare('SELECT person_id FROM person_accounts WHERE bot = ? AND kind = ? AND value = ?');
    // Today's spelling held exactly by another person is theirs (account-spelling.ts).
    const holderOf: ExactHolder = (a) =>
      (holder.get(bot, a.kind, a.value) as { person_id: string } | undefined)?.person_id;
    const rows = journaledUserIds(accounts, holderOf).flatMap(
      ({ userId, source, notSource }) =>
        query.all(bot, userId, source, source, notSource, notSource) as { source: string; channel_id: string }[],
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
    this.#db.transaction(() => {
      this.#db.prepare('DELETE FROM link_codes WHERE expires_at < ?').run(now - 86_400_000);
      // One live code per account: a user who asked twice leaves no second code that still works. A code being
      // redeemed is retired too, so if its link fails the code given back (releaseLinkCode) is already expired.
      this.#db
        .prepare(
          `UPDATE link_codes SET expires_at = ? WHERE bot = ? AND kind = ? AND value = ?
           AND expires_at > ?`,
        )
        .run(now, row.bot, row.account.kind, row.account.value, now);
      this.#db
        .prepare(
          'INSERT INTO link_codes (code_hash, bot, kind, value, expires_at, used_at) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(row.codeHash, row.bot, row.account.kind, row.account.value, row.expiresAt, row.usedAt);
    }).immediate();
  }

  releaseLinkCode(codeHash: string, usedAt: number): void {
    this.#db
      .prepare('UPDATE link_codes SET used_at = NULL WHERE code_hash = ? AND used_at = ?')
      .run(codeHash, usedAt);
  }

  attemptLinkCode(
    codeHash: string,
    attempt: RedeemAttempt,
    purpose: CodeAttemptPurpose,
    now: number,
    limits: RedeemLimits,
  ): CodeAttempt {
    // IMMEDIATE: the write lock from the first read, so another process's attempt cannot count in between.
    return this.#db.transaction((): CodeAttempt => {
      const failures = this.#failedRedeems(attempt, limits.since);
      if (isOverLimit(failures, limits)) return { limited: failures };
      const row = this.#db
        .prepare('SELECT bot, kind, value, expires_at, used_at FROM link_codes WHERE code_hash = ?')
        .get(codeHash) as LinkCodeTableRow | undefined;
      const code = row === undefined ? undefined : toLinkCode(codeHash, row);
      if (purpose === 'redeem' && code !== undefined && canRedeem(code, attempt, now)) {
        this.#db.prepare('UPDATE link_codes SET used_at = ? WHERE code_hash = ?').run(now, codeHash);
      }
      const wrong = isWrongAttempt(code, attempt, purpose, now);
      if (wrong) this.#noteFailedRedeem(attempt, now, limits.since);
      return { code, wrong };
    }).immediate();
  }

  #noteFailedRedeem(attempt: RedeemAttempt, now: number, since: number): void {
    // Every bot's stale failures: rows only come in here, so the table holds one window at most.
    this.#db.prepare('DELETE FROM link_failures WHERE at < ?').run(since);
    const { byAccount } = failureKeys(attempt);
    this.#db
      .prepare('INSERT INTO link_failures (bot, kind, value, at) VALUES (?, ?, ?, ?)')
      .run(attempt.bot, byAccount.kind, byAccount.value, now);
  }

  #failedRedeems(attempt: RedeemAttempt, since: number): FailedRedeems {
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
