/**
 * @module Whether a key may vouch for an account (link it, ask or redeem its code, forget or recall as it):
 * an admin key (or no auth) for any account, any other key only when its source is one the account's platform
 * allows (people/account-vouchers), so an `api` key cannot claim to be someone's Telegram or Discord account.
 */
import { type Principal, principalSource } from '../../auth/api-key-auth.js';
import type { AccountKey } from '../../journal/journal-people.js';
import { sourceMayVouch } from '../../people/account-vouchers.js';

/** Whether `principal` may act as `account`. */
export function mayVouchFor(principal: Principal, account: AccountKey): boolean {
  if (principal.kind === 'open' || principal.key.scopes.includes('admin')) return true;
  return sourceMayVouch(principalSource(principal), account);
}
