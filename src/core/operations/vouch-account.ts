/**
 * @module Whether a key may vouch for an account (link it, ask or redeem its code, forget or recall as it):
 * an admin key (or no auth) for any account, any other key only when its source is one the account's platform
 * allows (people/account-vouchers), so an `api` key cannot claim to be someone's Telegram or Discord account.
 */
import { type Principal, principalSource } from '../../auth/api-key-auth.js';
import { AuthError } from '../../errors/memory-pool-error.js';
import type { AccountKey } from '../../journal/journal-people.js';
import { sourceMayVouch, vouchingSources } from '../../people/account-vouchers.js';

/** Whether `principal` may act as `account`. */
export function mayVouchFor(principal: Principal, account: AccountKey): boolean {
  if (principal.kind === 'open' || principal.key.scopes.includes('admin')) return true;
  return sourceMayVouch(principalSource(principal), account);
}

/** Throws 403 unless `principal` may vouch for `account`, saying which sources may. */
export function requireVouch(principal: Principal, account: AccountKey): void {
  if (mayVouchFor(principal, account)) return;
  const sources = vouchingSources(account);
  const name = principal.kind === 'key' ? principal.key.name : 'caller';
  const who = account.kind === 'persona' ? `persona:${account.value}` : account.value;
  const allowed =
    sources.length === 0
      ? 'only an admin key'
      : `only a key acting as ${sources.map((s) => `"${s}"`).join(' or ')}`;
  throw new AuthError(
    'forbidden',
    `the API key "${name}" may not vouch for the account ${who}: ${allowed} may`,
  );
}
