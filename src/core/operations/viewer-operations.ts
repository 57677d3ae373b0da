/**
 * @module The memory viewer's operations beyond the published API: what the caller may do (`whoami`), the
 * timeline and one point (retrieve scope), the exact selection of a bulk forget (forget scope) and the
 * in-place edit of a SillyTavern point (admin, as every change to SillyTavern's points), each on the
 * collection the bot uses now and, for an edit, embedded with the model recorded for it.
 */
import { authorize, type Principal } from '../../auth/api-key-auth.js';
import { forgetPermissions } from '../../auth/forget-permissions.js';
import type { BotConfig, Operation } from '../../config/config-types.js';
import { AuthError } from '../../errors/memory-pool-error.js';
import type { StoredPointId } from '../../store/point-store.js';
import type { TimelineFilter } from '../../viewer/timeline-filter.js';
import type {
  ForgetSelectionResponse,
  PointDetailResponse,
  PointTextResponse,
  TimelinePageResponse,
  WhoamiResponse,
} from '../../wire/viewer.js';
import type { BotCollections } from '../bot-collections.js';
import type { MemoryCapabilities } from './memory-capabilities.js';

// What the viewer's routes parse a request into, so the faces need nothing beside the operations.
export { parseTimelineFilter, type TimelineFilter } from '../../viewer/timeline-filter.js';
export type { StoredPointId };

const OPERATIONS: readonly Operation[] = ['save', 'retrieve', 'forget', 'admin'];

/** What a viewer request asks to do: browse (timeline, one point), select a bulk forget, edit a point's text. */
export type ViewerAction = 'browse' | 'forget-selection' | 'edit';

export interface ViewerOperations {
  whoami(principal: Principal): Promise<WhoamiResponse>;
  /**
   * Refuses (404 unknown bot, then 401/403) before a route parses its query, id or body, so a caller without
   * the right answers as it always has and a non-admin key never makes the service read an edit's body.
   * Each operation below authorizes again; this is only the published order of answers.
   */
  authorize(principal: Principal, botName: string, action: ViewerAction): Promise<void>;
  timeline(
    principal: Principal,
    botName: string,
    filter: TimelineFilter,
    page: { limit: number; cursor?: string },
  ): Promise<TimelinePageResponse>;
  pointDetail(principal: Principal, botName: string, id: StoredPointId): Promise<PointDetailResponse>;
  forgetSelection(
    principal: Principal,
    botName: string,
    filter: TimelineFilter,
  ): Promise<ForgetSelectionResponse>;
  editPointText(
    principal: Principal,
    botName: string,
    id: StoredPointId,
    text: string,
  ): Promise<PointTextResponse>;
}

/**
 * Browsing shows every point's text, beyond what recall's privacy scope lets a key see: for a bot whose
 * scope is not `global`, only an admin key (or an open, keyless service) may browse.
 */
function authorizeBrowse(principal: Principal, bot: BotConfig, operation: Operation): void {
  authorize(principal, { operation, bot: bot.name });
  if (bot.retrieve.scope === 'global' || principal.kind !== 'key') return;
  if (principal.key.scopes.includes('admin')) return;
  throw new AuthError(
    'forbidden',
    `bot "${bot.name}" recalls with scope "${bot.retrieve.scope}"; browsing its points needs an admin key`,
  );
}

export function createViewerOperations(deps: {
  readonly collections: BotCollections;
  readonly viewerBackend: MemoryCapabilities['viewerBackend'];
}): ViewerOperations {
  const { collections, viewerBackend: backend } = deps;
  return {
    async whoami(principal) {
      const key = principal.kind === 'key' ? principal.key : undefined;
      const operations = key === undefined || key.scopes.includes('admin') ? OPERATIONS : key.scopes;
      const bots = (await Promise.all(collections.names().map((name) => collections.current(name))))
        .filter((bot) => key === undefined || key.bots === '*' || key.bots.includes(bot.name))
        .map((bot) => ({ name: bot.name, collection: bot.collection, scope: bot.retrieve.scope }));
      return { key: key?.name ?? null, operations: [...operations], bots, sources: key?.sources ?? '*' };
    },

    async authorize(principal, botName, action) {
      const bot = await collections.current(botName);
      if (action === 'edit') authorize(principal, { operation: 'admin', bot: bot.name });
      else authorizeBrowse(principal, bot, action === 'browse' ? 'retrieve' : 'forget');
    },

    async timeline(principal, botName, filter, page) {
      const bot = await collections.current(botName);
      authorizeBrowse(principal, bot, 'retrieve');
      return backend.timeline(bot, filter, page);
    },

    async pointDetail(principal, botName, id) {
      const bot = await collections.current(botName);
      authorizeBrowse(principal, bot, 'retrieve');
      return backend.pointDetail(bot, id);
    },

    async forgetSelection(principal, botName, filter) {
      const bot = await collections.current(botName);
      authorizeBrowse(principal, bot, 'forget');
      return backend.forgetSelection(bot, filter, forgetPermissions(principal));
    },

    async editPointText(principal, botName, id, text) {
      const bot = await collections.current(botName);
      authorize(principal, { operation: 'admin', bot: bot.name });
      return backend.editPointText(bot, id, text);
    },
  };
}
