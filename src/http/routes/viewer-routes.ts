/**
 * @module The memory viewer's routes beyond the published API: `GET /whoami` (what the caller may do),
 * the timeline and one point (retrieve scope), the exact selection of a bulk forget (forget scope) and the
 * in-place edit of a SillyTavern point (admin, as every change to SillyTavern's points).
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { ValidationError } from '../../errors/memory-pool-error.js';
import { parseTimelineFilter, type StoredPointId } from '../../core/operations/viewer-operations.js';
import { POINT_UUID_PATTERN } from '../../wire/forget-request.js';
import { readJsonBody } from '../read-json-body.js';
import type { ServiceDeps } from '../../core/service-deps.js';
import type { ServiceEnv } from '../service-env.js';

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

export function registerViewerRoutes(app: Hono<ServiceEnv>, deps: ServiceDeps): void {
  // Registration reads only the config (the route list is pinned without a service behind it).
  const viewer = () => deps.operations.viewer;
  app.get('/whoami', async (c) => c.json(await viewer().whoami(c.get('principal'))));

  // Each route authorizes before it parses, so the answers keep their published order (404, 401/403, then 400).
  app.get('/bots/:bot/points', async (c) => {
    await viewer().authorize(c.get('principal'), c.req.param('bot'), 'browse');
    const params = new URL(c.req.url).searchParams;
    const filter = parseTimelineFilter(params);
    const cursor = params.get('cursor') ?? undefined;
    const page = { limit: readLimit(params.get('limit') ?? undefined), ...(cursor ? { cursor } : {}) };
    return c.json(await viewer().timeline(c.get('principal'), c.req.param('bot'), filter, page));
  });

  app.get('/bots/:bot/points/:id', async (c) => {
    await viewer().authorize(c.get('principal'), c.req.param('bot'), 'browse');
    const id = readPointId(c.req.param('id'));
    return c.json(await viewer().pointDetail(c.get('principal'), c.req.param('bot'), id));
  });

  app.put('/bots/:bot/points/:id/text', async (c) => {
    await viewer().authorize(c.get('principal'), c.req.param('bot'), 'edit');
    const id = readPointId(c.req.param('id'));
    const { text } = await readJsonBody(c, pointTextSchema);
    return c.json(await viewer().editPointText(c.get('principal'), c.req.param('bot'), id, text));
  });

  app.get('/bots/:bot/forget-selection', async (c) => {
    await viewer().authorize(c.get('principal'), c.req.param('bot'), 'forget-selection');
    const filter = parseTimelineFilter(new URL(c.req.url).searchParams);
    return c.json(await viewer().forgetSelection(c.get('principal'), c.req.param('bot'), filter));
  });
}
