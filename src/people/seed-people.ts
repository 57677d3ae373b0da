/**
 * @module `speakerAliases` seed people at start: each alias name becomes a person (or joins the person of
 * that name) with the accounts its keys cover. An account already linked is left where it is, so a link the
 * owner made since, or a rename, wins over the config; running it again adds nothing.
 */
import type { BotConfig } from '../config/config-types.js';
import type { Journal } from '../journal/journal.js';
import type { AccountKey } from '../journal/journal-people.js';
import { aliasAccounts, describeAccount } from './account-key.js';
import { newPersonId } from './new-person-id.js';

/** What seeding did for one bot, for the start-up log. */
export interface SeedResult {
  readonly bot: string;
  readonly created: number;
  readonly linked: number;
  /** Accounts another process linked elsewhere while this one seeded (left as they are). */
  readonly skipped: readonly string[];
}

/** Seeds every bot's people from its aliases. */
export async function seedPeople(
  journal: Journal,
  bots: Readonly<Record<string, BotConfig>>,
  now: number,
): Promise<SeedResult[]> {
  const results: SeedResult[] = [];
  for (const bot of Object.values(bots)) {
    if (Object.keys(bot.speakerAliases).length > 0) results.push(await seedBot(journal, bot, now));
  }
  return results;
}

async function seedBot(journal: Journal, bot: BotConfig, now: number): Promise<SeedResult> {
  const byName = new Map<string, AccountKey[]>();
  for (const [key, alias] of Object.entries(bot.speakerAliases)) {
    const name = alias.trim();
    if (name === '') continue;
    byName.set(name, [...(byName.get(name) ?? []), ...aliasAccounts(key)]);
  }
  let created = 0;
  let linked = 0;
  const skipped: string[] = [];
  for (const [name, accounts] of byName) {
    const free: AccountKey[] = [];
    for (const account of accounts) {
      if ((await journal.people.personOf(bot.name, account)) === undefined) free.push(account);
    }
    if (free.length === 0) continue;
    const existing = (await journal.people.list(bot.name)).find((person) => person.name === name);
    const conflict =
      existing === undefined
        ? await journal.people.create(bot.name, { id: newPersonId(), name, accounts: free }, now)
        : await journal.people.update(bot.name, existing.id, { add: free }, now);
    if (typeof conflict === 'object') skipped.push(describeAccount(conflict.account));
    else {
      if (existing === undefined) created++;
      linked += free.length;
    }
  }
  return { bot: bot.name, created, linked, skipped };
}
