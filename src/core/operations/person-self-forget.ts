/**
 * @module A person's own forget-me, asked on an interface that vouches for one of their accounts (Discord's
 * `/memory forget-me`): every message of every account linked to that person, in every source (docs/people.md,
 * "Forget-me by the person"). The authority is the person's own request, which the interface vouches for as it
 * does for what they write: the key behind it must be allowed to save as its source. No HTTP route reaches
 * these (an HTTP key limited to one source forgets a person only through `POST /forget { person }`, which needs
 * forget rights over every source involved): only interfaces inside the service, whose user the platform itself
 * identifies, call them. SillyTavern's own points (no source) stay: those need the owner.
 */
import { authorize, type Principal, principalSource } from '../../auth/api-key-auth.js';
import { forgetPermissions } from '../../auth/forget-permissions.js';
import type { MemoryPoolConfig } from '../../config/config-types.js';
import { findPersonTargets } from '../../forgetting/person-forget-targets.js';
import type { Journal } from '../../journal/journal.js';
import type { PersonRow } from '../../journal/journal-people.js';
import { describeAccount, toAccountKey } from '../../people/account-key.js';
import type { ForgetResponse } from '../../wire/forget-request.js';
import type { WireAccount, WirePerson } from '../../wire/people.js';
import type { BotCollections } from '../bot-collections.js';
import type { MemoryCapabilities } from './memory-capabilities.js';
import { readVouchers, requireVouch } from './vouch-account.js';
import { toWirePerson } from './wire-person.js';

/** What a person's forget-me would remove: each linked account (as `describeAccount` names it) and its count. */
export interface PersonForgetCount {
  readonly person: WirePerson;
  readonly accounts: readonly { readonly account: string; readonly messages: number }[];
  /** Every message once (a message is one account's). */
  readonly total: number;
}

export interface PersonSelfForgetOperations {
  /** What the forget-me of `account`'s person would remove; undefined when the account is linked to nobody. */
  countOwnPerson(
    principal: Principal,
    botName: string,
    account: WireAccount,
  ): Promise<PersonForgetCount | undefined>;
  /** Forgets `account`'s person everywhere; undefined (nothing forgotten) when it is linked to nobody. */
  forgetOwnPerson(
    principal: Principal,
    botName: string,
    account: WireAccount,
  ): Promise<(PersonForgetCount & { readonly forgotten: ForgetResponse }) | undefined>;
}

interface SelfForgetDeps extends Pick<MemoryCapabilities, 'forget'> {
  readonly collections: BotCollections;
  readonly journal: Journal;
  /** `people.vouchers` (absent: the default). */
  readonly config?: Pick<MemoryPoolConfig, 'people'>;
}

export function createPersonSelfForget(deps: SelfForgetDeps): PersonSelfForgetOperations {
  const { collections, journal } = deps;
  /** The person of the account the caller vouches for (as a link code: its own source, of that platform). */
  const ownPerson = async (principal: Principal, botName: string, wire: WireAccount) => {
    const bot = await collections.current(botName);
    authorize(principal, {
      operation: 'save',
      bot: bot.name,
      source: principalSource(principal) ?? bot.defaultSource,
    });
    const account = toAccountKey(wire);
    // Only a key of the account's platform speaks for it (a persona: only the owner).
    requireVouch(principal, account, readVouchers(deps.config));
    authorize(principal, { operation: 'forget', bot: bot.name });
    return { bot, person: await journal.people.personOf(bot.name, account) };
  };
  const countOf = async (bot: string, person: PersonRow): Promise<PersonForgetCount> => {
    const accounts = [];
    for (const account of person.accounts) {
      const targets = await findPersonTargets(journal, bot, { ...person, accounts: [account] });
      accounts.push({ account: describeAccount(account), messages: targets.length });
    }
    return {
      person: toWirePerson(person),
      accounts,
      total: (await findPersonTargets(journal, bot, person)).length,
    };
  };

  return {
    async countOwnPerson(principal, botName, wire) {
      const { bot, person } = await ownPerson(principal, botName, wire);
      return person === undefined ? undefined : countOf(bot.name, person);
    },

    async forgetOwnPerson(principal, botName, wire) {
      const { bot, person } = await ownPerson(principal, botName, wire);
      if (person === undefined) return undefined;
      const count = await countOf(bot.name, person);
      // Every source: the person asked, and their accounts are theirs. Audited under the interface's name, with
      // the person and their accounts (forget-memories adds them).
      const permissions = { ...forgetPermissions(principal), sources: undefined, unsourced: false };
      const forgotten = await deps.forget(bot, { bot: bot.name, person: person.id }, permissions);
      return { ...count, forgotten };
    },
  };
}
