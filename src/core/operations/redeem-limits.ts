/**
 * @module The limits on wrong link codes (docs/people.md): 5 an hour for one account through one key, and 50
 * accounts with a wrong code within the hour through one key. A redeem and a code status read both count, since either tells
 * whether a guessed code exists.
 */
import type { Principal } from '../../auth/api-key-auth.js';
import { ValidationError } from '../../errors/memory-pool-error.js';
import type { Journal } from '../../journal/journal.js';
import type { AccountKey, FailedRedeems, RedeemAttempt } from '../../journal/journal-people.js';
import {
  LINK_FAILURE_WINDOW_MS,
  MAX_FAILED_REDEEMS,
  MAX_FAILING_ACCOUNTS_PER_KEY,
} from '../../people/link-code.js';

/** The attempt as the limits count it: the caller is the key's name (`open` without keys). */
export function toRedeemAttempt(principal: Principal, bot: string, account: AccountKey): RedeemAttempt {
  return { bot, account, caller: principal.kind === 'key' ? principal.key.name : 'open' };
}

/** Throws 429 when the attempt's account or key is already over its limit. */
export async function refuseWhenLimited(journal: Journal, attempt: RedeemAttempt, at: number): Promise<void> {
  refuseOverLimit(await journal.people.failedRedeems(attempt, at - LINK_FAILURE_WINDOW_MS), 0);
}

/** Notes a wrong code; throws 429 when that failure passed a limit (the caller throws its own 400 otherwise). */
export async function noteWrongCode(journal: Journal, attempt: RedeemAttempt, at: number): Promise<void> {
  refuseOverLimit(await journal.people.noteFailedRedeem(attempt, at, at - LINK_FAILURE_WINDOW_MS), 1);
}

/** 429 once the failures (`counted` of them this attempt's own) pass a limit. */
function refuseOverLimit(failures: FailedRedeems, counted: 0 | 1): void {
  // The key counts accounts: this failure added one only when it was the account's first.
  const newAccount = counted === 1 && failures.byAccount === 1 ? 1 : 0;
  if (failures.byAccount - counted >= MAX_FAILED_REDEEMS) {
    throw new ValidationError(
      'account',
      `account: ${MAX_FAILED_REDEEMS} wrong link codes within an hour from this account; wait an hour, then ask for a new code`,
      'too_many_attempts',
      429,
    );
  }
  if (failures.byCaller - newAccount >= MAX_FAILING_ACCOUNTS_PER_KEY) {
    throw new ValidationError(
      'code',
      `code: ${MAX_FAILING_ACCOUNTS_PER_KEY} accounts gave wrong link codes within an hour through this interface's key; wait an hour, then try again`,
      'too_many_attempts',
      429,
    );
  }
}
