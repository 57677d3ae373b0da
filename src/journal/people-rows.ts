/** @module Rows of the people tables as both journal backends read them, turned into the port's shapes. */
import { userAccountOf } from '../chunking/message-account.js';
import { type ExactHolder, withNormalSpellings } from './account-spelling.js';
import type {
  AccountKey,
  CodeAttemptPurpose,
  DmChannel,
  FailedRedeems,
  LinkCodeRow,
  PersonRow,
  RedeemAttempt,
  RedeemLimits,
  SeenAccount,
} from './journal-people.js';

export interface PersonTableRow {
  readonly person_id: string;
  readonly name: string;
  readonly created_at: number;
  readonly updated_at: number;
}

export interface AccountRow {
  readonly person_id: string;
  readonly kind: AccountKey['kind'];
  readonly value: string;
}

/** One group of a bot's user messages: by source, user id and name sent. */
export interface SeenRow {
  readonly source: string;
  readonly user_id: string | null;
  readonly speaker_name: string | null;
  readonly n: number;
  readonly last: number;
}

/** People sorted by name then id, each with its accounts sorted, so both backends answer alike. */
export function toPeople(people: readonly PersonTableRow[], accounts: readonly AccountRow[]): PersonRow[] {
  return [...people]
    .sort((a, b) => a.name.localeCompare(b.name) || a.person_id.localeCompare(b.person_id))
    .map((p) => ({
      id: p.person_id,
      name: p.name,
      createdAt: p.created_at,
      updatedAt: p.updated_at,
      accounts: accounts
        .filter((a) => a.person_id === p.person_id)
        .map((a) => ({ kind: a.kind, value: a.value }))
        .sort(compareAccounts),
    }));
}

/** Whether `redeemer` may use `code` at `now`: the same bot, unused, unexpired, said by another account. */
export function canRedeem(
  code: LinkCodeRow,
  redeemer: { bot: string; account: AccountKey },
  now: number,
): boolean {
  return (
    code.bot === redeemer.bot &&
    code.usedAt === null &&
    code.expiresAt > now &&
    !(code.account.kind === redeemer.account.kind && code.account.value === redeemer.account.value)
  );
}

/** Whether an attempt at `code` (undefined: no such code) is a wrong code, which the limits count. */
export function isWrongAttempt(
  code: LinkCodeRow | undefined,
  attempt: RedeemAttempt,
  purpose: CodeAttemptPurpose,
  now: number,
): boolean {
  if (code === undefined) return true;
  if (purpose === 'redeem') return !canRedeem(code, attempt, now);
  // Only the account that asked for a code may ask about it.
  return !(
    code.bot === attempt.bot &&
    code.account.kind === attempt.account.kind &&
    code.account.value === attempt.account.value
  );
}

/** Whether the failures already counted refuse the next attempt. */
export function isOverLimit(failures: FailedRedeems, limits: RedeemLimits): boolean {
  return failures.byAccount >= limits.account || failures.byCaller >= limits.caller;
}

/**
 * The (user_id, source) pairs under which a user account's messages are journaled, as `userAccountOf` reads a
 * row: its id in any source (`source` null), except that a bare id in Discord's own source is the Discord user's
 * (`notSource`), and a Discord account's bare id where Discord's recorder saved it (source `discord`).
 */
export function journaledUserIds(
  accounts: readonly AccountKey[],
  holderOf: ExactHolder = () => undefined,
): { userId: string; source: string | null; notSource: string | null }[] {
  // An account stored in an older spelling (`Discord:555`) also reaches the messages of its spelling today,
  // unless another person holds that spelling exactly (`holderOf`, account-spelling.ts).
  return withNormalSpellings(accounts, holderOf).flatMap((account) => {
    if (account.kind !== 'user') return [];
    const bare = !account.value.includes(':');
    const pairs = [{ userId: account.value, source: null as string | null, notSource: bare ? DISCORD : null }];
    if (account.value.startsWith('discord:'))
      pairs.push({ userId: account.value.slice(8), source: DISCORD, notSource: null });
    return pairs;
  });
}

const DISCORD = 'discord';

/** Sorted and distinct. */
export function sortDmChannels(rows: readonly { source: string; channel_id: string }[]): DmChannel[] {
  const seen = new Map(
    rows.map((r) => [`${r.source}\u0000${r.channel_id}`, { source: r.source, channelId: r.channel_id }]),
  );
  return [...seen.values()].sort(
    (a, b) => a.source.localeCompare(b.source) || a.channelId.localeCompare(b.channelId),
  );
}

/** Orders accounts by kind then value. */
export function compareAccounts(a: AccountKey, b: AccountKey): number {
  return a.kind.localeCompare(b.kind) || a.value.localeCompare(b.value);
}

/**
 * The account a person's message was sent from: Discord's recorder sends the bare snowflake, which is the
 * account `discord:<id>` (what the Hermes plugin sends for the same person); other sources send their own
 * qualified id. A message with no user id but a name (SillyTavern's history) is that persona.
 */
export function accountOfMessage(
  source: string,
  userId: string | null | undefined,
  speakerName: string | null | undefined,
): AccountKey | undefined {
  const user = userAccountOf(source, userId);
  if (user !== undefined) return { kind: 'user', value: user };
  const name = speakerName?.trim();
  return name ? { kind: 'persona', value: name } : undefined;
}

/** Groups by account and source: names seen (sorted), message count, last message time. */
export function groupSeenAccounts(rows: readonly SeenRow[]): SeenAccount[] {
  const groups = new Map<
    string,
    { account: AccountKey; source: string; names: Set<string>; messages: number; lastSeen: number }
  >();
  for (const row of rows) {
    const account = accountOfMessage(row.source, row.user_id, row.speaker_name);
    if (account === undefined) continue;
    const key = JSON.stringify([account.kind, account.value, row.source]);
    const group = groups.get(key) ?? {
      account,
      source: row.source,
      names: new Set(),
      messages: 0,
      lastSeen: 0,
    };
    if (row.speaker_name) group.names.add(row.speaker_name);
    group.messages += row.n;
    group.lastSeen = Math.max(group.lastSeen, row.last);
    groups.set(key, group);
  }
  return [...groups.values()]
    .map((g) => ({ ...g, names: [...g.names].sort() }))
    .sort((a, b) => compareAccounts(a.account, b.account) || a.source.localeCompare(b.source));
}

/**
 * The link_failures row (kind, value) one failed redeem writes: the account through that caller, as JSON, which
 * keeps the caller and account apart whatever characters they hold. `callerPrefix` starts every such row of
 * one caller: the caller's count is of the distinct accounts that failed through it (so one user's handful of
 * accounts can never lock out the interface's other users, and a new account per guess still adds up).
 */
export function failureKeys(attempt: RedeemAttempt): { byAccount: FailureKey; callerPrefix: string } {
  return {
    byAccount: {
      kind: 'account',
      value: JSON.stringify([attempt.caller, attempt.account.kind, attempt.account.value]),
    },
    callerPrefix: `${JSON.stringify([attempt.caller]).slice(0, -1)},`,
  };
}

/** One counter of link_failures (rows of kind `caller`, one per failure, are no longer written). */
export interface FailureKey {
  readonly kind: 'account';
  readonly value: string;
}

/** A link_codes row as both backends select it. */
export interface LinkCodeTableRow {
  readonly bot: string;
  readonly kind: AccountKey['kind'];
  readonly value: string;
  readonly expires_at: number;
  readonly used_at: number | null;
}

/** The port's shape of a link_codes row. */
export function toLinkCode(codeHash: string, row: LinkCodeTableRow): LinkCodeRow {
  return {
    codeHash,
    bot: row.bot,
    account: { kind: row.kind, value: row.value },
    expiresAt: Number(row.expires_at),
    usedAt: row.used_at === null ? null : Number(row.used_at),
  };
}
