/**
 * @module Whether a key may vouch for an account (link it, ask or redeem its code, forget or recall as it):
 * an admin key (or no auth) for any account, any other key only when its source is one the account's platform
 * allows (`people.vouchers`, people/account-vouchers), so an `api` key cannot claim to be someone's Telegram or Discord account.
 */
import { type Principal, principalSource } from '../../auth/api-key-auth.js';
import type { MemoryPoolConfig } from '../../config/config-types.js';
import { DEFAULT_VOUCHERS } from '../../config/people-schema.js';
import { AuthError } from '../../errors/memory-pool-error.js';
import type { AccountKey } from '../../journal/journal-people.js';
import { sourceMayVouch, type Vouchers, vouchingSources } from '../../people/account-vouchers.js';

/**
 * The service's `people.vouchers` (the default for a config built by hand), platforms in lower case as
 * accounts are looked up (the config's parse already lowers them; a config built by hand may not).
 */
export function readVouchers(config: Pick<MemoryPoolConfig, 'people'> | undefined): Vouchers {
  const vouchers = config?.people?.vouchers ?? DEFAULT_VOUCHERS;
  return Object.fromEntries(Object.entries(vouchers).map(([name, sources]) => [name.toLowerCase(), sources]));
}

/** Whether `principal` may act as `account`. */
export function mayVouchFor(principal: Principal, account: AccountKey, vouchers: Vouchers): boolean {
  if (principal.kind === 'open' || principal.key.scopes.includes('admin')) return true;
  return sourceMayVouch(principalSource(principal), account, vouchers);
}

/** Throws 403 unless `principal` may vouch for `account`, saying which sources may. */
export function requireVouch(principal: Principal, account: AccountKey, vouchers: Vouchers): void {
  if (mayVouchFor(principal, account, vouchers)) return;
  const sources = vouchingSources(account, vouchers);
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
