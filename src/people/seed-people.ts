/**
 * @module `speakerAliases` seed people at start: each alias name becomes a person (or joins the person of
 * that name) with the accounts its keys cover. An account already linked is left where it is, so a link the
 * owner made since, or a rename, wins over the config; running it again adds nothing. An account whose chunks the
 * alias already named is not renamed (its chunks would be re-embedded unchanged).
 */
import type { BotConfig } from '../config/config-types.js';
import type { Journal } from '../journal/journal.js';
import type { AccountKey, SeenAccount } from '../journal/journal-people.js';
import { aliasAccounts, describeAccount, sameAccount } from './account-key.js';
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
  const keyOf = new Map<AccountKey, string>();
  for (const [key, alias] of Object.entries(bot.speakerAliases)) {
    const name = alias.trim();
    if (name === '') continue;
    const accounts = aliasAccounts(key);
    for (const account of accounts) keyOf.set(account, key);
    byName.set(name, [...(byName.get(name) ?? []), ...accounts]);
  }
  let seen: Promise<SeenAccount[]> | undefined;
  const seenAccounts = () => (seen ??= journal.people.seenAccounts(bot.name));
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
    const namesUnchanged: AccountKey[] = [];
    for (const account of free) {
      if (await namedByAlias(account, keyOf.get(account) ?? '', seenAccounts)) namesUnchanged.push(account);
    }
    const options = { namesUnchanged };
    const conflict =
      existing === undefined
        ? await journal.people.create(bot.name, { id: newPersonId(), name, accounts: free }, now, options)
        : await journal.people.update(bot.name, existing.id, { add: free }, now, options);
    if (typeof conflict === 'object') skipped.push(describeAccount(conflict.account));
    else {
      if (existing === undefined) created++;
      linked += free.length;
    }
  }
  return { bot: bot.name, created, linked, skipped };
}

/**
 * Whether every chunk of `account` already carries the alias of `key` (chunk-format: an alias names a message
 * whose user id is exactly the key, and a `<@id>` mention of a bare key).
 */
async function namedByAlias(
  account: AccountKey,
  key: string,
  seenAccounts: () => Promise<SeenAccount[]>,
): Promise<boolean> {
  // A user id account holds exactly the messages sent with that id.
  if (!account.value.startsWith('discord:')) return account.value === key;
  // A Discord account also holds `discord:<id>` ids sent outside the Discord recorder (Hermes), which a bare key
  // never named; and a `discord:` key named neither the recorder's bare ids nor the mentions.
  if (key.includes(':') || key !== key.trim()) return false;
  const others = (await seenAccounts()).filter(
    (s) => sameAccount(s.account, account) && s.source !== 'discord',
  );
  return others.length === 0;
}
