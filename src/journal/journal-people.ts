/**
 * @module People in the journal: per bot, a person has an id, one name (what chunk texts say) and the
 * accounts linked to it, each account belonging to at most one person; plus the one-use link codes a person
 * redeems on another interface, and the failed redeems that rate-limit guessing. Every replica reads the same.
 */

/**
 * An account, as stored: `user` with a platform-qualified id (`discord:1234`, `telegram:5678`, an HTTP
 * client's own id as sent) or `persona` with a SillyTavern persona name (its points carry names, not ids).
 */
export interface AccountKey {
  readonly kind: 'user' | 'persona';
  readonly value: string;
}

/** One person of one bot. */
export interface PersonRow {
  readonly id: string;
  readonly name: string;
  readonly accounts: readonly AccountKey[];
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What creating or linking refused: the account already belongs to `person`. */
export interface LinkConflict {
  readonly account: AccountKey;
  readonly person: { readonly id: string; readonly name: string };
}

/** An account seen in the journal's messages (a user's messages only), grouped by source. */
export interface SeenAccount {
  readonly account: AccountKey;
  readonly source: string;
  readonly names: readonly string[];
  readonly messages: number;
  readonly lastSeen: number;
}

/** A direct-message conversation: its channel id within the source that saved it. */
export interface DmChannel {
  readonly source: string;
  readonly channelId: string;
}

/** A stored link code: only its hash, never the code. */
export interface LinkCodeRow {
  readonly codeHash: string;
  readonly bot: string;
  readonly account: AccountKey;
  readonly expiresAt: number;
  readonly usedAt: number | null;
}

/**
 * One redeem attempt, for the rate limit: the account saying the code and the caller vouching for it (the API
 * key's name; `open` without keys), so one key's wrong guesses neither spread over account names nor lock the
 * account out of redeeming through another key.
 */
export interface RedeemAttempt {
  readonly bot: string;
  readonly account: AccountKey;
  readonly caller: string;
}

/** Failed redeems within the window: by this account through this caller; distinct accounts failing through this caller. */
export interface FailedRedeems {
  readonly byAccount: number;
  readonly byCaller: number;
}

/** What a code attempt is for: saying the code (redeem), or its issuer asking what became of it (status). */
export type CodeAttemptPurpose = 'redeem' | 'status';

/** The wrong-code limits: failures since `since`, at most `account` per account and caller, `caller` accounts per caller. */
export interface RedeemLimits {
  readonly since: number;
  readonly account: number;
  readonly caller: number;
}

/** What an attempt at a code found: refused by the limits before the code was read, or the code as it was. */
export type CodeAttempt =
  | { readonly limited: FailedRedeems }
  | { readonly limited?: undefined; readonly code: LinkCodeRow | undefined; readonly wrong: boolean };

/** How a create or update requests its renames. */
export interface PeopleWriteOptions {
  /**
   * Accounts whose stored chunks already read as the change makes them read (a `speakerAliases` seed: the alias
   * named them when they were written): no rename is requested for them, so their chunks are not re-embedded.
   */
  readonly namesUnchanged?: readonly AccountKey[];
}

/**
 * Per-bot people. Writes are one transaction each and durable when they resolve. create, update and remove also
 * request, in that transaction, the rename of the stored chunks of every account they touch (journal-renames.ts).
 */
export interface JournalPeople {
  list(bot: string): Promise<PersonRow[]>;
  get(bot: string, id: string): Promise<PersonRow | undefined>;
  /** The person an account is linked to, if any. */
  personOf(bot: string, account: AccountKey): Promise<PersonRow | undefined>;
  /** Creates the person with its accounts; nothing is written when an account is already linked. */
  create(
    bot: string,
    person: { id: string; name: string; accounts: readonly AccountKey[] },
    now: number,
    options?: PeopleWriteOptions,
  ): Promise<LinkConflict | undefined>;
  /**
   * Renames, links `add` and unlinks `remove`, all or nothing: an account of `add` linked to another person
   * is a conflict; one already linked to this person is kept. Resolves false when the person does not exist.
   */
  update(
    bot: string,
    id: string,
    change: { name?: string; add?: readonly AccountKey[]; remove?: readonly AccountKey[] },
    now: number,
    options?: PeopleWriteOptions,
  ): Promise<LinkConflict | boolean>;
  /** Deletes the person and its links (its messages stay). Resolves false when there was no such person. */
  remove(bot: string, id: string, now: number): Promise<boolean>;
  /**
   * The DM conversations the person with `accounts` had with the bot: each (source, channel id) of a direct
   * message one of these user accounts sent, in any source, sorted.
   */
  dmChannels(bot: string, accounts: readonly AccountKey[]): Promise<DmChannel[]>;
  /** One row per account, source and name seen in `bot`'s messages from people (not the agent). */
  seenAccounts(bot: string): Promise<SeenAccount[]>;

  /**
   * Stores a new code's hash, retiring (expiring at `now`) every earlier unused code of the same account and bot,
   * so an account has one live code at a time even when two replicas issue at once; drops codes that expired a
   * day ago or more.
   */
  saveLinkCode(row: LinkCodeRow, now: number): Promise<void>;
  /**
   * One attempt at a code, checked against the wrong-code limits, tried and counted in one atomic step (attempts
   * through one caller take turns, across replicas too), so parallel guesses cannot all pass the check before any
   * is counted. Over a limit already (the failures since `limits.since` against `attempt`): `limited`, and the
   * code is neither read nor used. Otherwise the code is read; a `redeem` marks it used at `now` when the attempt
   * may redeem it (same bot, unused, unexpired, another account than the one that asked for it), a `status`
   * changes nothing; a wrong attempt (no such code; for a redeem one it may not redeem; for a status another
   * account's or bot's code) is noted as a failure, which drops every failure older than `limits.since`.
   * Resolves with the code as it was before.
   */
  attemptLinkCode(
    codeHash: string,
    attempt: RedeemAttempt,
    purpose: CodeAttemptPurpose,
    now: number,
    limits: RedeemLimits,
  ): Promise<CodeAttempt>;
  /**
   * Gives back a code `attemptLinkCode` marked used at `usedAt` (the link it was for failed, e.g. an account
   * linked elsewhere), so the person can try again; a code used at another moment is left as it is.
   */
  releaseLinkCode(codeHash: string, usedAt: number): Promise<void>;
}
