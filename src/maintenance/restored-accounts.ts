/**
 * @module The user accounts of a snapshot's messages, for which a restore requests a rename: its points carry the
 * names and `dmWith` of the day it was taken.
 */
import type { AccountKey } from '../journal/journal-people.js';
import type { JournalRow, SnapshotTable } from '../journal/journal-snapshot.js';
import { userAccountOf } from '../chunking/message-account.js';

/**
 * Every user account that sent one of `rows.messages`, once each, sorted. A restored point may say
 * `person:<id>` for an account linked to someone else since (same journal) or unlinked just before the export;
 * until the rename pass rewrites the account's chunks with today's links, recall must not trust `dmWith`. Personas
 * are left out: `dmWith` never names one, and a SillyTavern point is never rewritten.
 */
export function listRestoredUserAccounts(
  rows: Partial<Record<SnapshotTable, readonly JournalRow[]>>,
): AccountKey[] {
  const values = new Set<string>();
  for (const row of rows.messages ?? []) {
    if (row.speaker_kind !== 'user') continue;
    const account = userAccountOf(
      String(row.source ?? ''),
      row.user_id === null ? undefined : String(row.user_id),
    );
    if (account !== undefined) values.add(account);
  }
  return [...values].sort().map((value) => ({ kind: 'user', value }));
}
