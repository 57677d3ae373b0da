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

  /** Stores a new code's hash, and drops codes that expired a day ago or more. */
  saveLinkCode(row: LinkCodeRow, now: number): Promise<void>;
  /** The code as stored (undefined: no such code), changing nothing: what its issuer may ask about it. */
  getLinkCode(codeHash: string): Promise<LinkCodeRow | undefined>;
  /**
   * Reads the code and, when it can be redeemed by `redeemer` (same bot, unused, expires_at > now, another
   * account than the one that asked for it), marks it used at `now`, once even with two replicas at the same
   * moment. Resolves with the row as it was before (undefined: no such code), from which the caller tells why not.
   */
  useLinkCode(
    codeHash: string,
    redeemer: { bot: string; account: AccountKey },
    now: number,
  ): Promise<LinkCodeRow | undefined>;
  /**
   * Gives back a code `useLinkCode` marked used at `usedAt` (the link it was for failed, e.g. an account linked
   * elsewhere), so the person can try again; a code used at another moment is left as it is.
   */
  releaseLinkCode(codeHash: string, usedAt: number): Promise<void>;
  /**
   * Notes a failed redeem and answers the failures since `since` (this one included); drops every failure
   * older than `since` (of any bot), so the table holds one window's failures at most.
   */
  noteFailedRedeem(attempt: RedeemAttempt, now: number, since: number): Promise<FailedRedeems>;
  /** The failed redeems since `since` counted against `attempt`. */
  failedRedeems(attempt: RedeemAttempt, since: number): Promise<FailedRedeems>;
}
