/** @module `POST /save`: journal a client's window and answer at once; chunking happens in the background. */
import type { Hono } from 'hono';
import type { ServiceDeps } from '../../core/service-deps.js';
import { saveRequestSchema } from '../../wire/save-request.js';
import { readJsonBody } from '../read-json-body.js';
import type { ServiceEnv } from '../service-env.js';

export function registerSaveRoute(app: Hono<ServiceEnv>, deps: ServiceDeps): void {
  app.post('/save', async (c) => {
    const request = await readJsonBody(c, saveRequestSchema);
    return c.json(await deps.operations.save(c.get('principal'), request.bot, request));
  });
}
