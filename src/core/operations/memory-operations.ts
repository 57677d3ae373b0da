/**
 * @module The one set of the service's operations: save, retrieve, forget, stats, the forget log, the
 * viewer's reads and edits, and people. Each takes who asks, which bot and the request, authorizes inside and acts on
 * the collection the bot uses now (BotCollections), so HTTP, Discord and MCP cannot differ.
 */
import { authorize, type Principal, principalSource } from '../../auth/api-key-auth.js';
import { forgetPermissions } from '../../auth/forget-permissions.js';
import type { MemoryPoolConfig } from '../../config/config-types.js';
import { ValidationError } from '../../errors/memory-pool-error.js';
import { acceptSave } from '../../ingest/accept-save.js';
import type { MessageMatch } from '../../journal/forget-journal.js';
import type { ChannelMessage, Journal } from '../../journal/journal.js';
import type { ServiceMetrics } from '../../metrics/service-metrics.js';
import type { RenameRunner } from '../../people/rename-runner.js';
import type { MemoryStore } from '../../store/memory-store.js';
import type {
  ForgetLogEntry,
  ForgetLogResponse,
  ForgetRequest,
  ForgetResponse,
} from '../../wire/forget-request.js';
import type { RetrieveRequest, RetrieveResponse } from '../../wire/retrieve-request.js';
import type { SaveRequest, SaveResponse } from '../../wire/save-request.js';
import type { BotStatsResponse } from '../../wire/stats-response.js';
import type { BotCollections } from '../bot-collections.js';
import { readBotStats, toStatsResponse } from '../read-bot-stats.js';
import type { MemoryCapabilities } from './memory-capabilities.js';
import { createPeopleOperations, type PeopleOperations } from './people-operations.js';
import { createPersonSelfForget, type PersonSelfForgetOperations } from './person-self-forget.js';
import { createViewerOperations, type ViewerOperations } from './viewer-operations.js';
import { mayVouchFor, readVouchers } from './vouch-account.js';

/** How a forget selects journaled messages (Discord counts what a forget would remove). */
export type { MessageMatch };

export interface MemoryOperationsDeps extends MemoryCapabilities {
  readonly config: MemoryPoolConfig;
  readonly collections: BotCollections;
  readonly journal: Journal;
  readonly store: MemoryStore;
  readonly metrics: ServiceMetrics;
  /** Tells the chunk writer new messages are waiting. */
  wakeWriter(): void;
  /** Runs the rename pass a link change requested (people operations). */
  readonly renames?: Pick<RenameRunner, 'schedule'> | undefined;
}

export interface MemoryOperations extends PersonSelfForgetOperations {
  /** `POST /save`: journal the window (source: the request's, else the key's, else the bot's default). */
  save(principal: Principal, botName: string, request: SaveRequest): Promise<SaveResponse>;
  retrieve(
    principal: Principal,
    botName: string,
    request: RetrieveRequest,
    signal?: AbortSignal,
  ): Promise<RetrieveResponse>;
  /** Forgets within what the caller's key may forget. */
  forget(principal: Principal, botName: string, request: ForgetRequest): Promise<ForgetResponse>;
  /** How many journaled messages a forget by `match` would remove, within what the caller may forget. */
  countForgettable(principal: Principal, botName: string, match: MessageMatch): Promise<number>;
  /** Which of `messageIds` the caller's own source has journaled for the bot. */
  recordedAmong(
    principal: Principal,
    botName: string,
    messageIds: readonly string[],
  ): Promise<ReadonlySet<string>>;
  /**
   * What the caller's own source journaled for the bot in one channel with `ts` in [fromTs, toTs], oldest first
   * (the Discord gap back-fill finds what was deleted meanwhile by comparing it with the channel's history).
   */
  journaledInChannel(
    principal: Principal,
    botName: string,
    channel: { readonly channelId: string; readonly fromTs: number; readonly toTs: number },
  ): Promise<ChannelMessage[]>;
  /** The forget audit (admin), of one bot or of every bot; `limit` as the query gives it (default 100). */
  forgetLog(
    principal: Principal,
    botName: string | undefined,
    limit: string | undefined,
  ): Promise<ForgetLogResponse>;
  stats(principal: Principal, botName: string): Promise<BotStatsResponse>;
  readonly viewer: ViewerOperations;
  /** People and link codes (people-operations.ts). */
  readonly people: PeopleOperations;
}

/** Builds the operations over the assembled parts (src/core/assemble-service.ts). */
export function createMemoryOperations(deps: MemoryOperationsDeps): MemoryOperations {
  const { collections, journal } = deps;
  return {
    async save(principal, botName, request) {
      // The configured bot, not its live collection: a save journals messages by bot and source, and the
      // writer reads the route when it plans their chunk; asking the journal here cost every /save a query.
      const bot = collections.configured(botName);
      const source = request.source ?? principalSource(principal) ?? bot.defaultSource;
      authorize(principal, { operation: 'save', bot: bot.name, source });
      return acceptSave(deps, bot, request, source);
    },

    async retrieve(principal, botName, request, signal) {
      const bot = await collections.current(botName);
      authorize(principal, { operation: 'retrieve', bot: bot.name });
      const response = await deps.retrieve(bot, request, signal, {
        // Without auth every caller is trusted: its DM may be in any source.
        source: principal.kind === 'open' ? undefined : (principalSource(principal) ?? bot.defaultSource),
        mayVouch: (account) => mayVouchFor(principal, account, readVouchers(deps.config)),
      });
      deps.metrics.recallHits.observe({ bot: bot.name }, response.hits.length);
      return response;
    },

    async forget(principal, botName, request) {
      const bot = await collections.current(botName);
      authorize(principal, { operation: 'forget', bot: bot.name });
      return deps.forget(bot, request, forgetPermissions(principal));
    },

    async countForgettable(principal, botName, match) {
      const bot = await collections.current(botName);
      authorize(principal, { operation: 'forget', bot: bot.name });
      return (await journal.forgetting.findMatching(bot.name, match, forgetPermissions(principal).sources))
        .length;
    },

    async recordedAmong(principal, botName, messageIds) {
      const bot = await collections.current(botName);
      const source = principalSource(principal) ?? bot.defaultSource;
      authorize(principal, { operation: 'save', bot: bot.name, source });
      return journal.forgetting.journaledAmong(bot.name, source, messageIds);
    },

    async journaledInChannel(principal, botName, { channelId, fromTs, toTs }) {
      const bot = await collections.current(botName);
      const source = principalSource(principal) ?? bot.defaultSource;
      authorize(principal, { operation: 'save', bot: bot.name, source });
      return journal.forgetting.journaledInChannel(bot.name, source, channelId, fromTs, toTs);
    },

    async forgetLog(principal, botName, limitText = '100') {
      const bot = botName === undefined ? undefined : collections.configured(botName);
      authorize(principal, { operation: 'admin', bot: bot?.name ?? '*' });
      const limit = Number(limitText);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
        throw new ValidationError('limit', `limit: expected an integer from 1 to 1000, got "${limitText}"`);
      }
      const entries = await journal.forgetting.listAudit({ ...(bot ? { bot: bot.name } : {}), limit });
      return { entries: entries as unknown as ForgetLogEntry[] };
    },

    async stats(principal, botName) {
      const bot = await collections.current(botName);
      // Retrieve scope: stats read no memory text.
      authorize(principal, { operation: 'retrieve', bot: bot.name });
      return toStatsResponse(await readBotStats(deps, bot, bot.collection));
    },

    // A person's own forget-me, for interfaces inside the service only (no HTTP route): person-self-forget.ts.
    ...createPersonSelfForget(deps),
    viewer: createViewerOperations(deps),
    people: createPeopleOperations(deps),
  };
}
