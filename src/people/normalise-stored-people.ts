/**
 * @module At start, accounts linked before the API normalised them (`telegram:42 `, `Discord:555`) are rewritten
 * as it spells them today, so a lookup (a redeem, a link conflict, forget-me) finds them; no schema change, the
 * rows are only relinked. An account whose spelling names no account (`discord:anna#1234`) is left for the owner.
 */
import type { Journal } from '../journal/journal.js';
import type { AccountKey } from '../journal/journal-people.js';
import { describeAccount, normaliseAccount, sameAccount } from './account-key.js';

/** What was rewritten for one bot, for the start-up log. */
export interface NormaliseResult {
  readonly bot: string;
  readonly rewritten: number;
  /** `stored → normal (person)`: the normal spelling is already another person's; both left for the owner. */
  readonly conflicts: readonly string[];
}

/** Rewrites each bot's stored accounts into their normal spelling. */
export async function normaliseStoredPeople(
  journal: Journal,
  bots: readonly string[],
  now: number,
): Promise<NormaliseResult[]> {
  const results: NormaliseResult[] = [];
  for (const bot of bots) {
    let rewritten = 0;
    const conflicts: string[] = [];
    for (const person of await journal.people.list(bot)) {
      for (const stored of person.accounts) {
        const normal = normaliseAccount(stored);
        if (sameAccount(stored, normal)) continue;
        const has = person.accounts.some((account: AccountKey) => sameAccount(account, normal));
        const change = has ? { remove: [stored] } : { remove: [stored], add: [normal] };
        const result = await journal.people.update(bot, person.id, change, now);
        if (typeof result === 'object') {
          conflicts.push(
            `${describeAccount(stored)} → ${describeAccount(normal)} (${result.person.name}, ${result.person.id})`,
          );
        } else if (result) rewritten++;
      }
    }
    if (rewritten + conflicts.length > 0) results.push({ bot, rewritten, conflicts });
  }
  return results;
}
