/**
 * @module The limits on wrong link codes (docs/people.md): 5 an hour for one account through one key, and 50
 * accounts with a wrong code within the hour through one key. A redeem and a code status read both count, since either tells
 * whether a guessed code exists. The journal checks, tries and counts an attempt in one step (attemptLinkCode).
 */
import type { Principal } from '../../auth/api-key-auth.js';
import { ValidationError } from '../../errors/memory-pool-error.js';
import type { AccountKey, FailedRedeems, RedeemAttempt, RedeemLimits } from '../../journal/journal-people.js';
import {
  LINK_FAILURE_WINDOW_MS,
  MAX_FAILED_REDEEMS,
  MAX_FAILING_ACCOUNTS_PER_KEY,
} from '../../people/link-code.js';

/** The attempt as the limits count it: the caller is the key's name (`open` without keys). */
export function toRedeemAttempt(principal: Principal, bot: string, account: AccountKey): RedeemAttempt {
  return { bot, account, caller: principal.kind === 'key' ? principal.key.name : 'open' };
}

/** The limits an attempt at `at` is checked against: the failures of the hour before it. */
export function toRedeemLimits(at: number): RedeemLimits {
  return {
    since: at - LINK_FAILURE_WINDOW_MS,
    account: MAX_FAILED_REDEEMS,
    caller: MAX_FAILING_ACCOUNTS_PER_KEY,
  };
}

/** The 429 for an attempt the journal refused over a limit: the account's own, or else its key's. */
export function toLimitedError(failures: FailedRedeems): ValidationError {
  if (failures.byAccount >= MAX_FAILED_REDEEMS) {
    return new ValidationError(
      'account',
      `account: ${MAX_FAILED_REDEEMS} wrong link codes within an hour from this account; wait an hour, then ask for a new code`,
      'too_many_attempts',
      429,
    );
  }
  return new ValidationError(
    'code',
    `code: ${MAX_FAILING_ACCOUNTS_PER_KEY} accounts gave wrong link codes within an hour through this interface's key; wait an hour, then try again`,
    'too_many_attempts',
    429,
  );
}
