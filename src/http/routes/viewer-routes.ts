/**
 * @module The memory viewer's routes beyond the published API: `GET /whoami` (what the caller may do),
 * the timeline and one point (retrieve scope), the exact selection of a bulk forget (forget scope) and the
 * in-place edit of a SillyTavern point (admin, as every change to SillyTavern's points).
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { authorize, type Principal } from '../../auth/api-key-auth.js';
import { forgetPermissions } from '../../auth/forget-permissions.js';
import type { BotConfig, Operation } from '../../config/config-types.js';
import { AuthError, ValidationError } from '../../errors/memory-pool-error.js';
import type { StoredPointId } from '../../store/point-store.js';
import { parseTimelineFilter } from '../../viewer/timeline-filter.js';
import { POINT_UUID_PATTERN } from '../../wire/forget-request.js';
import type { WhoamiResponse } from '../../wire/viewer.js';
import { readJsonBody } from '../read-json-body.js';
import type { ServiceDeps, ServiceEnv } from '../service-deps.js';
import { requireBot } from './require-bot.js';

const OPERATIONS: readonly Operation[] = ['save', 'retrieve', 'forget', 'admin'];
const MAX_PAGE = 200;

const pointTextSchema = z.object({
  text: z
    .string()
    .max(16_000)
    .refine((t) => t.trim() !== '', 'must not be empty or only whitespace'),
});

/** A point id from the path: an unsigned integer or a UUID, as Qdrant's ids are. */
function readPointId(text: string): StoredPointId {
  if (/^\d{1,15}$/.test(text)) return Number(text);
  if (POINT_UUID_PATTERN.test(text)) return text;
  throw new ValidationError('id', `id: expected an unsigned integer or a UUID, got "${text.slice(0, 60)}"`);
}

function readLimit(text: string | undefined): number {
  if (text === undefined) return 50;
  const limit = /^\d{1,4}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
    throw new ValidationError('limit', `limit: expected an integer from 1 to ${MAX_PAGE}, got "${text}"`);
  }
  return limit;
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

function describePrincipal(principal: Principal, deps: ServiceDeps): WhoamiResponse {
  const key = principal.kind === 'key' ? principal.key : undefined;
  const operations = key === undefined || key.scopes.includes('admin') ? OPERATIONS : key.scopes;
  const bots = Object.values(deps.config.bots)
    .filter((bot) => key === undefined || key.bots === '*' || key.bots.includes(bot.name))
    .map((bot) => ({ name: bot.name, collection: bot.collection, scope: bot.retrieve.scope }));
  return { key: key?.name ?? null, operations: [...operations], bots, sources: key?.sources ?? '*' };
}

export function registerViewerRoutes(app: Hono<ServiceEnv>, deps: ServiceDeps): void {
  app.get('/whoami', (c) => c.json(describePrincipal(c.get('principal'), deps)));

  app.get('/bots/:bot/points', async (c) => {
    const bot = requireBot(deps.config, c.req.param('bot'));
    authorizeBrowse(c.get('principal'), bot, 'retrieve');
    const params = new URL(c.req.url).searchParams;
    const filter = parseTimelineFilter(params);
    const cursor = params.get('cursor') ?? undefined;
    const page = { limit: readLimit(params.get('limit') ?? undefined), ...(cursor ? { cursor } : {}) };
    return c.json(await deps.viewer.timeline(bot, filter, page));
  });

  app.get('/bots/:bot/points/:id', async (c) => {
    const bot = requireBot(deps.config, c.req.param('bot'));
    authorizeBrowse(c.get('principal'), bot, 'retrieve');
    return c.json(await deps.viewer.pointDetail(bot, readPointId(c.req.param('id'))));
  });

  app.put('/bots/:bot/points/:id/text', async (c) => {
    const bot = requireBot(deps.config, c.req.param('bot'));
    authorize(c.get('principal'), { operation: 'admin', bot: bot.name });
    const id = readPointId(c.req.param('id'));
    const { text } = await readJsonBody(c, pointTextSchema);
    return c.json(await deps.viewer.editPointText(bot, id, text));
  });

  app.get('/bots/:bot/forget-selection', async (c) => {
    const bot = requireBot(deps.config, c.req.param('bot'));
    const principal = c.get('principal');
    authorizeBrowse(principal, bot, 'forget');
    const filter = parseTimelineFilter(new URL(c.req.url).searchParams);
    return c.json(await deps.viewer.forgetSelection(bot, filter, forgetPermissions(principal)));
  });
}
