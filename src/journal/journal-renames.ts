/**
 * @module The rename pass in the journal (docs/people.md, "What a link changes"): each link change leaves, in its
 * own transaction, a request naming the accounts whose stored chunks must be rewritten under the names the links
 * give now; a pass turns a bot's requests, all at once, into queued rewrites of the chunks they touch. Both are
 * rows, so a process killed between the change and the pass, or during it, loses nothing: the next start (or
 * another replica) runs the pass again.
 */
import type { AccountKey } from './journal-people.js';

/** One account waiting for its pass; `version` grows with every change touching it. */
export interface RenameRequest {
  readonly account: AccountKey;
  readonly version: number;
  readonly requestedAt: number;
}

/** What is left of a bot's renames: accounts whose pass has not run yet, chunks queued and not yet rewritten. */
export interface RenameProgress {
  readonly bot: string;
  readonly accountsWaiting: number;
  readonly chunksLeft: number;
}

/** The rename rows. Writes are one transaction each and durable when they resolve. */
export interface JournalRenames {
  /** The bots with requests waiting, sorted. */
  botsWaiting(): Promise<string[]>;
  /** A bot's requests. */
  requests(bot: string): Promise<RenameRequest[]>;
  /**
   * The ids of `bot`'s chunks holding a message from one of `accounts`, or a `<@id>` mention of one of its Discord
   * users, sorted: through the messages' indexes (user id, persona), and a text match for mentions.
   */
  matchingChunks(bot: string, accounts: readonly AccountKey[]): Promise<string[]>;
  /**
   * One transaction: replans those of `chunkIds` not waiting for a delete (as an edit does: a write of the old
   * revision racing with it is not taken as current), notes them and those waiting for a delete (whose old point
   * is stored until the delete replans them) as a rename's until written, and deletes the requests read (a
   * request changed since, by a newer version, stays for the next pass). Answers how many chunks were noted.
   */
  queueRewrites(
    bot: string,
    requests: readonly RenameRequest[],
    chunkIds: readonly string[],
    now: number,
  ): Promise<number>;
  /**
   * Requests a rename of `accounts` outside a people change (a restore: its points were written under the links
   * of the snapshot's day), as a link change does. One transaction.
   */
  requestRenames(bot: string, accounts: readonly AccountKey[], now: number): Promise<void>;
  /** Every bot with a rename left, sorted by bot. */
  progress(): Promise<RenameProgress[]>;
  /**
   * Whether `bot` has a rename left, as `progress` would list it, answered by the first row found (every DM recall
   * by a linked person asks: until then a point's `dmWith` may still name someone an account left).
   */
  isRenaming(bot: string): Promise<boolean>;
  /** Forgets the chunks a rename queued that are written (or gone) since. */
  dropFinished(): Promise<void>;
}

/**
 * The accounts whose chunks read differently after a change: those linked or unlinked, and with a new name, every
 * account of the person (before and after the change).
 */
export function touchedAccounts(
  before: readonly AccountKey[],
  change: { name?: string; add?: readonly AccountKey[]; remove?: readonly AccountKey[] },
): AccountKey[] {
  const touched = [
    ...(change.name === undefined ? [] : before),
    ...(change.add ?? []),
    ...(change.remove ?? []),
  ];
  const seen = new Map(touched.map((account) => [`${account.kind}\u0000${account.value}`, account]));
  return [...seen.values()];
}

/** `accounts` but those of `unchanged` (PeopleWriteOptions.namesUnchanged). */
export function accountsToRename(
  accounts: readonly AccountKey[],
  unchanged: readonly AccountKey[] = [],
): AccountKey[] {
  return accounts.filter(
    (account) => !unchanged.some((u) => u.kind === account.kind && u.value === account.value),
  );
}

/** The Discord user ids among `accounts` a `<@id>` mention can name (snowflakes: digits). */
export function mentionedIds(accounts: readonly AccountKey[]): string[] {
  return accounts.flatMap((account) => {
    const match = account.kind === 'user' ? /^discord:(\d+)$/.exec(account.value) : null;
    return match === null ? [] : [match[1]!];
  });
}

/** Of a chunk's messages, those a mention scan keeps: `<@id>` or `<@!id>` of one of `ids`. */
export function mentionPatterns(ids: readonly string[]): string[] {
  return ids.flatMap((id) => [`<@${id}>`, `<@!${id}>`]);
}
