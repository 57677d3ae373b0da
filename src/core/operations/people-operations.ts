/**
 * @module The people operations (docs/people.md): the owner's (admin) list, create, rename/link/unlink and
 * delete, and the self-service link codes, which the calling key vouches for as it does for /save's user ids:
 * it must be allowed to save for the source it saves as. Faces (HTTP now; Discord, Hermes, MCP, the viewer
 * later) call these, never the journal.
 */
import { authorize, type Principal, principalSource } from '../../auth/api-key-auth.js';
import type { MemoryPoolConfig } from '../../config/config-types.js';
import { ValidationError } from '../../errors/memory-pool-error.js';
import type { Journal } from '../../journal/journal.js';
import type { AccountKey, CodeAttemptPurpose } from '../../journal/journal-people.js';
import {
  describeAccount,
  sameAccount,
  sameNormalAccount,
  toAccountKey,
  toWireAccount,
} from '../../people/account-key.js';
import {
  hashLinkCode,
  LINK_CODE_TTL_MS,
  newLinkCode,
  normaliseLinkCode,
  requireLinkCode,
} from '../../people/link-code.js';
import { createPerson, linkAccounts, requirePerson, updatePerson } from '../../people/people-directory.js';
import type { RenameRunner } from '../../people/rename-runner.js';
import type {
  CreatePersonRequest,
  LinkCodeResponse,
  LinkCodeStatusRequest,
  LinkCodeStatusResponse,
  PeopleResponse,
  RedeemLinkCodeRequest,
  UpdatePersonRequest,
  WireAccount,
  WirePerson,
} from '../../wire/people.js';
import { personNameSchema } from '../../wire/people.js';
import type { BotCollections } from '../bot-collections.js';
import { hideLinkedPerson, toCallerPerson } from './caller-person.js';
import { describeLinkCodeStatus } from './link-code-status.js';
import { toLimitedError, toRedeemAttempt, toRedeemLimits } from './redeem-limits.js';
import { readVouchers, requireVouch } from './vouch-account.js';
import { toWirePerson } from './wire-person.js';

export interface PeopleOperationsDeps {
  readonly collections: BotCollections;
  readonly journal: Journal;
  /** The clock (tests move it past a code's 10 minutes). */
  readonly now?: () => number;
  /** The service's config: `people.vouchers` (absent: the default). */
  readonly config?: Pick<MemoryPoolConfig, 'people'>;
  /** Runs the rename pass a change requested (src/people/rename-runner.ts). */
  readonly renames?: Pick<RenameRunner, 'schedule'> | undefined;
}

export interface PeopleOperations {
  /** GET /bots/{bot}/people (admin): people, and the accounts seen in messages that nobody is linked to. */
  list(principal: Principal, botName: string): Promise<PeopleResponse>;
  create(principal: Principal, botName: string, request: CreatePersonRequest): Promise<WirePerson>;
  update(
    principal: Principal,
    botName: string,
    id: string,
    request: UpdatePersonRequest,
  ): Promise<WirePerson>;
  /** Unlinks every account and drops the person; no message is forgotten. */
  remove(principal: Principal, botName: string, id: string): Promise<{ ok: true; unlinked: number }>;
  /** A one-use code for `account` (10 minutes), to say on another interface. */
  createLinkCode(principal: Principal, botName: string, account: WireAccount): Promise<LinkCodeResponse>;
  /**
   * Links the account saying the code with the account that asked for it; answers the person (an interface
   * key sees only the account it named: caller-person.ts).
   */
  redeemLinkCode(principal: Principal, botName: string, request: RedeemLinkCodeRequest): Promise<WirePerson>;
  /** What became of a code, asked by the account that asked for it: waiting, redeemed (into whom), expired. */
  linkCodeStatus(
    principal: Principal,
    botName: string,
    request: LinkCodeStatusRequest,
  ): Promise<LinkCodeStatusResponse>;
  /** One account unlinks itself (a key that may save as its source; admin: any account). */
  unlinkAccount(principal: Principal, botName: string, id: string, account: WireAccount): Promise<WirePerson>;
  /**
   * The person `account` is linked to (undefined: nobody), for the interface that vouches for the account (a key
   * that may save as its source), e.g. Discord's `/memory forget-me` naming every account it will forget.
   */
  personOfAccount(
    principal: Principal,
    botName: string,
    account: WireAccount,
  ): Promise<WirePerson | undefined>;
  /**
   * The Discord user ids linked to a person of the bot (ids only), for a key that may save as its source: the
   * Discord recorder keeps their mentions as `<@id>`, which the chunk writer writes under the person's name.
   */
  linkedDiscordUserIds(principal: Principal, botName: string): Promise<string[]>;
}

/** Builds the people operations over the journal. */
export function createPeopleOperations(deps: PeopleOperationsDeps): PeopleOperations {
  const { collections, journal } = deps;
  const now = deps.now ?? Date.now;
  const vouchers = readVouchers(deps.config);
  const admin = (principal: Principal, botName: string) => {
    const bot = collections.configured(botName);
    authorize(principal, { operation: 'admin', bot: bot.name });
    return bot.name;
  };
  /**
   * The key vouches for its users: it must be allowed to save as the source it saves as (as /save), and that
   * source must be one that sees the accounts' platform (vouch-account: Discord users from discord or hermes).
   */
  const vouch = (principal: Principal, botName: string, accounts: readonly AccountKey[]) => {
    const bot = collections.configured(botName);
    authorize(principal, {
      operation: 'save',
      bot: bot.name,
      source: principalSource(principal) ?? bot.defaultSource,
    });
    for (const account of accounts) requireVouch(principal, account, vouchers);
    return bot.name;
  };
  const keys = (accounts: readonly WireAccount[] | undefined) => (accounts ?? []).map(toAccountKey);
  /**
   * After a change: the journal holds its rename request (written with the change); the pass that rewrites the
   * chunks already stored runs in the background, a little later.
   */
  const renamed = <T>(bot: string, result: T): T => {
    deps.renames?.schedule(bot);
    return result;
  };

  /**
   * What a redeem and a status check share: the account vouched for, the code's shape checked, then one atomic
   * attempt in the journal (the wrong-code limits checked, the code read, and a wrong one counted: a 429 when the
   * limits already refuse the account or key, before the code is even read).
   */
  const attemptCode = async (
    principal: Principal,
    botName: string,
    request: { readonly code: string; readonly account: WireAccount },
    purpose: CodeAttemptPurpose,
  ) => {
    const account = toAccountKey(request.account);
    const bot = vouch(principal, botName, [account]);
    const codeHash = hashLinkCode(requireLinkCode(request.code));
    const at = now();
    const attempt = toRedeemAttempt(principal, bot, account);
    const tried = await journal.people.attemptLinkCode(codeHash, attempt, purpose, at, toRedeemLimits(at));
    if (tried.limited !== undefined) throw toLimitedError(tried.limited);
    return { account, bot, at, code: tried.code, wrong: tried.wrong };
  };

  return {
    async list(principal, botName) {
      const bot = admin(principal, botName);
      const people = await journal.people.list(bot);
      const linked = people.flatMap((p) => p.accounts);
      const unlinked = new Map<
        string,
        { account: AccountKey; names: Set<string>; sources: Set<string>; messages: number; lastSeen: number }
      >();
      for (const seen of await journal.people.seenAccounts(bot)) {
        if (linked.some((account) => sameAccount(account, seen.account))) continue;
        const key = describeAccount(seen.account);
        const entry = unlinked.get(key) ?? {
          account: seen.account,
          names: new Set(),
          sources: new Set(),
          messages: 0,
          lastSeen: 0,
        };
        for (const name of seen.names) entry.names.add(name);
        entry.sources.add(seen.source);
        entry.messages += seen.messages;
        entry.lastSeen = Math.max(entry.lastSeen, seen.lastSeen);
        unlinked.set(key, entry);
      }
      return {
        bot,
        people: people.map(toWirePerson),
        unlinked: [...unlinked.values()].map((e) => ({
          account: toWireAccount(e.account),
          names: [...e.names].sort(),
          sources: [...e.sources].sort(),
          messages: e.messages,
          last_seen: new Date(e.lastSeen).toISOString(),
        })),
      };
    },

    async create(principal, botName, request) {
      const bot = admin(principal, botName);
      const accounts = keys(request.accounts);
      return renamed(
        bot,
        toWirePerson(await createPerson(journal, bot, { name: request.name, accounts }, now())),
      );
    },

    async update(principal, botName, id, request) {
      const bot = admin(principal, botName);
      const change = {
        ...(request.name === undefined ? {} : { name: request.name }),
        add: keys(request.add),
        remove: keys(request.remove),
      };
      return renamed(bot, toWirePerson(await updatePerson(journal, bot, id, change, now())));
    },

    async remove(principal, botName, id) {
      const bot = admin(principal, botName);
      const person = await requirePerson(journal, bot, id);
      await journal.people.remove(bot, id, now());
      return renamed(bot, { ok: true as const, unlinked: person.accounts.length });
    },

    async createLinkCode(principal, botName, account) {
      const key = toAccountKey(account);
      const bot = vouch(principal, botName, [key]);
      const code = newLinkCode();
      const expiresAt = now() + LINK_CODE_TTL_MS;
      await journal.people.saveLinkCode(
        { codeHash: hashLinkCode(normaliseLinkCode(code)!), bot, account: key, expiresAt, usedAt: null },
        now(),
      );
      return { code, expires_at: new Date(expiresAt).toISOString() };
    },

    async redeemLinkCode(principal, botName, request) {
      const { account, bot, at, code } = await attemptCode(principal, botName, request, 'redeem');
      // Which refusal: the journal has counted it as a wrong code already.
      const refusal =
        code === undefined
          ? 'is not a code this service gave (check it, or ask for a new one)'
          : code.bot !== bot
            ? `was given for another bot, not "${bot}"`
            : sameAccount(code.account, account)
              ? 'was asked for by this same account: say it on your other account'
              : code.usedAt !== null
                ? 'was already used (a code links once); ask for a new one'
                : code.expiresAt <= at
                  ? 'has expired (a code lasts 10 minutes, or until the account asks for a newer one); ask for a new one'
                  : undefined;
      if (refusal !== undefined || code === undefined) {
        throw new ValidationError('code', `code: the code ${refusal}`);
      }
      const named = (await journal.people.seenAccounts(bot)).find((s) =>
        sameAccount(s.account, code.account),
      );
      // A seen speaker name was written by whichever client saved it: only a valid person name is used.
      const name =
        named?.names.find((seen) => personNameSchema.safeParse(seen).success)?.trim() ??
        describeAccount(code.account);
      // The code was marked used before the link: a link refused (an account linked elsewhere) gives it back.
      const person = await linkAccounts(journal, bot, code.account, account, name, at).catch(
        async (error: unknown) => {
          await journal.people.releaseLinkCode(code.codeHash, at);
          throw hideLinkedPerson(principal, error);
        },
      );
      return renamed(bot, toCallerPerson(principal, person, [account]));
    },

    async linkCodeStatus(principal, botName, request) {
      const { bot, at, code, wrong } = await attemptCode(principal, botName, request, 'status');
      // Only the account that asked for a code learns about it; anything else answers as a wrong code does.
      if (wrong || code === undefined) {
        throw new ValidationError(
          'code',
          `code: not a code this service gave to this account for "${bot}" (check it, or ask for a new one)`,
        );
      }
      return describeLinkCodeStatus(journal, code, at);
    },

    async unlinkAccount(principal, botName, id, wire) {
      const account = toAccountKey(wire);
      const bot = vouch(principal, botName, [account]);
      const person = await requirePerson(journal, bot, id);
      // Compared normalised: an account stored before the API normalised it is still the caller's own.
      const stored = person.accounts.find((a) => sameNormalAccount(a, account));
      if (stored === undefined) {
        throw new ValidationError(
          'account',
          `account: ${describeAccount(account)} is not linked to ${person.name} (${id})`,
        );
      }
      const left = await updatePerson(journal, bot, id, { remove: [stored] }, now());
      // The caller left the person: an interface key sees none of the accounts that stay.
      return renamed(bot, toCallerPerson(principal, left, []));
    },

    async personOfAccount(principal, botName, wire) {
      const account = toAccountKey(wire);
      const bot = vouch(principal, botName, [account]);
      const person = await journal.people.personOf(bot, account);
      return person === undefined ? undefined : toWirePerson(person);
    },

    async linkedDiscordUserIds(principal, botName) {
      const bot = vouch(principal, botName, []);
      return (await journal.people.list(bot))
        .flatMap((person) => person.accounts.map(toWireAccount))
        .flatMap((account) => ('discord_user_id' in account ? [account.discord_user_id] : []));
    },
  };
}
