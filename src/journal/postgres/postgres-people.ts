/**
 * @module People and link codes in the Postgres journal: the SQLite tables' columns and meanings. Each change of
 * links or names requests, in its own transaction, the rename of the chunks it touches (postgres-renames.ts).
 */
import type {
  AccountKey,
  CodeAttempt,
  CodeAttemptPurpose,
  DmChannel,
  FailedRedeems,
  JournalPeople,
  LinkCodeRow,
  LinkConflict,
  PeopleWriteOptions,
  PersonRow,
  RedeemAttempt,
  RedeemLimits,
  SeenAccount,
} from '../journal-people.js';
import { exactHolders, findNormalMatch, maybeUnnormalSql, normaliseAccount } from '../account-spelling.js';
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
import { requestPostgresRenames } from './postgres-renames.js';
import type { PgSession } from './postgres-session.js';
import { decodeText } from './postgres-text.js';

/** Thrown inside a transaction to roll it back when an account turns out linked to someone else. */
class Conflicted extends Error {
  readonly conflict: LinkConflict;
  constructor(conflict: LinkConflict) {
    super('account already linked');
    this.conflict = conflict;
  }
}

/** A commit is durable when it returns (synchronous_commit), so writes need no flush. */
export class PostgresPeople implements JournalPeople {
  readonly #db: PgSession;

  constructor(db: PgSession) {
    this.#db = db;
  }

  list(bot: string): Promise<PersonRow[]> {
    return this.#read(this.#db, bot, undefined);
  }

  async get(bot: string, id: string): Promise<PersonRow | undefined> {
    return (await this.#read(this.#db, bot, id))[0];
  }

  async personOf(bot: string, account: AccountKey): Promise<PersonRow | undefined> {
    const row =
      (await this.#db.row<{ person_id: string }>(
        'SELECT person_id FROM person_accounts WHERE bot = $1 AND kind = $2 AND value = $3',
        [bot, account.kind, account.value],
      )) ??
      // Stored in an older spelling (account-spelling.ts): found now, not only after a restart respells it.
      findNormalMatch(
        await this.#db.rows<AccountRow>(
          `SELECT person_id, kind, value FROM person_accounts WHERE bot = $1 AND kind = $2
           AND ${maybeUnnormalSql("value ~ '[^!-~]'")}`,
          [bot, account.kind],
        ),
        account,
      );
    return row === undefined ? undefined : this.get(bot, row.person_id);
  }

  async create(
    bot: string,
    person: { id: string; name: string; accounts: readonly AccountKey[] },
    now: number,
    options: PeopleWriteOptions = {},
  ): Promise<LinkConflict | undefined> {
    try {
      await this.#db.transaction(async (tx) => {
        await tx.run(
          'INSERT INTO people (bot, person_id, name, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)',
          [bot, person.id, person.name, now],
        );
        await linkAccounts(tx, bot, person.id, person.accounts, now);
        await requestPostgresRenames(tx, bot, accountsToRename(person.accounts, options.namesUnchanged), now);
      });
      return undefined;
    } catch (error) {
      if (error instanceof Conflicted) return error.conflict;
      throw error;
    }
  }

  async update(
    bot: string,
    id: string,
    change: { name?: string; add?: readonly AccountKey[]; remove?: readonly AccountKey[] },
    now: number,
    options: PeopleWriteOptions = {},
  ): Promise<LinkConflict | boolean> {
    try {
      return await this.#db.transaction(async (tx) => {
        if (!(await lockPerson(tx, bot, id))) return false;
        await tx.run(
          'UPDATE people SET name = coalesce($3, name), updated_at = $4 WHERE bot = $1 AND person_id = $2',
          [bot, id, change.name ?? null, now],
        );
        const before = await tx.rows<{ kind: AccountKey['kind']; value: string }>(
          'SELECT kind, value FROM person_accounts WHERE bot = $1 AND person_id = $2',
          [bot, id],
        );
        for (const account of change.remove ?? []) {
          await tx.run(
            'DELETE FROM person_accounts WHERE bot = $1 AND kind = $2 AND value = $3 AND person_id = $4',
            [bot, account.kind, account.value, id],
          );
        }
        await linkAccounts(tx, bot, id, change.add ?? [], now);
        const touched = touchedAccounts(before, change);
        await requestPostgresRenames(tx, bot, accountsToRename(touched, options.namesUnchanged), now);
        return true;
      });
    } catch (error) {
      if (error instanceof Conflicted) return error.conflict;
      throw error;
    }
  }

  remove(bot: string, id: string, now: number): Promise<boolean> {
    return this.#db.transaction(async (tx) => {
      // Before its links: an update holding the person commits its links first, and they go too.
      if (!(await lockPerson(tx, bot, id))) return false;
      const unlinked = await tx.rows<{ kind: AccountKey['kind']; value: string }>(
        'DELETE FROM person_accounts WHERE bot = $1 AND person_id = $2 RETURNING kind, value',
        [bot, id],
      );
      await requestPostgresRenames(tx, bot, unlinked, now);
      return (await tx.run('DELETE FROM people WHERE bot = $1 AND person_id = $2', [bot, id])) > 0;
    });
  }

  async dmChannels(bot: string, accounts: readonly AccountKey[]): Promise<DmChannel[]> {
    const rows: { source: string; channel_id: string }[] = [];
    // Who holds each spelling exactly: today's spelling held by another person is theirs (account-spelling.ts).
    const held = await this.#db.rows<AccountRow>(
      'SELECT person_id, kind, value FROM person_accounts WHERE bot = $1 AND value = ANY($2::text[])',
      [bot, accounts.flatMap((a) => [a.value, normaliseAccount(a).value])],
    );
    const holderOf = exactHolders(held.map((r) => ({ id: r.person_id, accounts: [r] })));
    for (const { userId, source, notSource } of journaledUserIds(accounts, holderOf)) {
      rows.push(
        ...(await this.#db.rows<{ source: string; channel_id: string }>(
          `SELECT DISTINCT source, channel_id FROM messages WHERE bot = $1 AND user_id = $2 AND is_dm = 1
           AND channel_id IS NOT NULL AND ($3::text IS NULL OR source = $3) AND ($4::text IS NULL OR source <> $4)`,
          [bot, userId, source, notSource],
        )),
      );
    }
    return sortDmChannels(rows);
  }

  async seenAccounts(bot: string): Promise<SeenAccount[]> {
    const rows = await this.#db.rows<SeenRow>(
      `SELECT source, user_id, speaker_name, COUNT(*) AS n, MAX(ts) AS last FROM messages
       WHERE bot = $1 AND speaker_kind = 'user' GROUP BY source, user_id, speaker_name`,
      [bot],
    );
    // speaker_name is stored escaped (postgres-text.ts); user ids cannot hold U+0000.
    return groupSeenAccounts(
      rows.map((r) => ({ ...r, speaker_name: r.speaker_name === null ? null : decodeText(r.speaker_name) })),
    );
  }

  async saveLinkCode(row: LinkCodeRow, now: number): Promise<void> {
    await this.#db.transaction(async (tx) => {
      // Codes for one account are issued one after another (two replicas at once too), so the retire below sees
      // the other's code: one live code per account.
      await tx.run('SELECT pg_advisory_xact_lock(hashtextextended($1, 3))', [
        JSON.stringify([row.bot, row.account.kind, row.account.value]),
      ]);
      await tx.run('DELETE FROM link_codes WHERE expires_at < $1', [now - 86_400_000]);
      // A code being redeemed is retired too: if its link fails, the code given back is already expired.
      await tx.run(
        `UPDATE link_codes SET expires_at = $1 WHERE bot = $2 AND kind = $3 AND value = $4 AND expires_at > $1`,
        [now, row.bot, row.account.kind, row.account.value],
      );
      await tx.run(
        'INSERT INTO link_codes (code_hash, bot, kind, value, expires_at, used_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [row.codeHash, row.bot, row.account.kind, row.account.value, row.expiresAt, row.usedAt],
      );
    });
  }

  async releaseLinkCode(codeHash: string, usedAt: number): Promise<void> {
    await this.#db.transaction(async (tx) => {
      await tx.run('UPDATE link_codes SET used_at = NULL WHERE code_hash = $1 AND used_at = $2', [
        codeHash,
        usedAt,
      ]);
    });
  }

  attemptLinkCode(
    codeHash: string,
    attempt: RedeemAttempt,
    purpose: CodeAttemptPurpose,
    now: number,
    limits: RedeemLimits,
  ): Promise<CodeAttempt> {
    return this.#db.transaction(async (tx): Promise<CodeAttempt> => {
      // Attempts through one caller take turns on every replica: the count read below includes every failure
      // noted before, so parallel guesses cannot all pass it (the per-caller count spans the caller's accounts).
      await tx.run('SELECT pg_advisory_xact_lock(hashtextextended($1, 2))', [
        JSON.stringify([attempt.bot, attempt.caller]),
      ]);
      const failures = await countFailures(tx, attempt, limits.since);
      if (isOverLimit(failures, limits)) return { limited: failures };
      // FOR UPDATE: of two replicas redeeming one code at once through two callers, the second reads it used.
      const row = await tx.row<LinkCodeTableRow>(
        'SELECT bot, kind, value, expires_at, used_at FROM link_codes WHERE code_hash = $1 FOR UPDATE',
        [codeHash],
      );
      const code = row === undefined ? undefined : toLinkCode(codeHash, row);
      if (purpose === 'redeem' && code !== undefined && canRedeem(code, attempt, now)) {
        await tx.run('UPDATE link_codes SET used_at = $2 WHERE code_hash = $1', [codeHash, now]);
      }
      const wrong = isWrongAttempt(code, attempt, purpose, now);
      if (wrong) {
        // Every bot's stale failures: rows only come in here, so the table holds one window at most.
        await tx.run('DELETE FROM link_failures WHERE at < $1', [limits.since]);
        const { byAccount } = failureKeys(attempt);
        await tx.run('INSERT INTO link_failures (bot, kind, value, at) VALUES ($1, $2, $3, $4)', [
          attempt.bot,
          byAccount.kind,
          byAccount.value,
          now,
        ]);
      }
      return { code, wrong };
    });
  }

  async #read(db: PgSession, bot: string, id: string | undefined): Promise<PersonRow[]> {
    const filter = id === undefined ? '' : ' AND person_id = $2';
    const args = id === undefined ? [bot] : [bot, id];
    return db.transaction(async (tx) => {
      const people = await tx.rows<PersonTableRow>(
        `SELECT person_id, name, created_at, updated_at FROM people WHERE bot = $1${filter}`,
        args,
      );
      const accounts = await tx.rows<AccountRow>(
        `SELECT person_id, kind, value FROM person_accounts WHERE bot = $1${filter}`,
        args,
      );
      return toPeople(people, accounts);
    });
  }
}

/**
 * Locks the person's row for the rest of the transaction (false: no such person). Every change to a person
 * takes it first, so a remove and an update of one person run one after the other: otherwise a remove could
 * delete the links, an update add one, and the remove then drop the person, leaving a link to nobody.
 */
async function lockPerson(tx: PgSession, bot: string, id: string): Promise<boolean> {
  const row = await tx.row<{ person_id: string }>(
    'SELECT person_id FROM people WHERE bot = $1 AND person_id = $2 FOR UPDATE',
    [bot, id],
  );
  return row !== undefined;
}

/**
 * Links each account to `id`; one linked to another person throws Conflicted (the transaction rolls back).
 * ON CONFLICT DO NOTHING waits for a concurrent uncommitted link of the same account, so two replicas
 * linking one account at once never both succeed.
 */
async function linkAccounts(
  tx: PgSession,
  bot: string,
  id: string,
  accounts: readonly AccountKey[],
  now: number,
): Promise<void> {
  for (const account of accounts) {
    const inserted = await tx.run(
      `INSERT INTO person_accounts (bot, kind, value, person_id, linked_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (bot, kind, value) DO NOTHING`,
      [bot, account.kind, account.value, id, now],
    );
    if (inserted > 0) continue;
    const owner = await tx.row<{ person_id: string; name: string }>(
      `SELECT a.person_id, p.name FROM person_accounts a JOIN people p ON p.bot = a.bot AND p.person_id = a.person_id
       WHERE a.bot = $1 AND a.kind = $2 AND a.value = $3`,
      [bot, account.kind, account.value],
    );
    if (owner !== undefined && owner.person_id !== id) {
      throw new Conflicted({ account, person: { id: owner.person_id, name: owner.name } });
    }
  }
}

async function countFailures(db: PgSession, attempt: RedeemAttempt, since: number): Promise<FailedRedeems> {
  const { byAccount, callerPrefix } = failureKeys(attempt);
  const account = await db.row<{ n: number }>(
    'SELECT COUNT(*) AS n FROM link_failures WHERE bot = $1 AND kind = $2 AND value = $3 AND at >= $4',
    [attempt.bot, byAccount.kind, byAccount.value, since],
  );
  // Distinct accounts through this caller (people-rows.ts failureKeys).
  const caller = await db.row<{ n: number }>(
    `SELECT COUNT(DISTINCT value) AS n FROM link_failures
     WHERE bot = $1 AND kind = 'account' AND substr(value, 1, $2) = $3 AND at >= $4`,
    [attempt.bot, callerPrefix.length, callerPrefix, since],
  );
  return { byAccount: Number(account?.n ?? 0), byCaller: Number(caller?.n ?? 0) };
}
