/** @module An account as the People panel names it: which platform, which id, and a stable key for lists. */
import type { WireAccount } from '../../src/wire/people.js';

export function describeAccount(account: WireAccount): string {
  if ('discord_user_id' in account) return `Discord ${account.discord_user_id}`;
  if ('user_id' in account) return account.user_id;
  return `SillyTavern persona “${account.persona}”`;
}

export const accountKey = (account: WireAccount): string => JSON.stringify(account);
