/**
 * @module The people routes (docs/people.md): the owner's `GET|POST /bots/{bot}/people`,
 * `PATCH|DELETE /bots/{bot}/people/{id}` (admin), and the self-service `POST /bots/{bot}/link-codes`,
 * `POST /bots/{bot}/link-codes/redeem`, `POST /bots/{bot}/link-codes/status` and
 * `DELETE /bots/{bot}/people/{id}/accounts`.
 */
import type { Hono } from 'hono';
import type { ServiceDeps } from '../../core/service-deps.js';
import {
  accountRequestSchema,
  createPersonSchema,
  linkCodeStatusSchema,
  redeemLinkCodeSchema,
  updatePersonSchema,
} from '../../wire/people.js';
import { readJsonBody } from '../read-json-body.js';
import type { ServiceEnv } from '../service-env.js';

export function registerPeopleRoutes(app: Hono<ServiceEnv>, deps: ServiceDeps): void {
  const people = () => deps.operations.people;

  app.get('/bots/:bot/people', async (c) =>
    c.json(await people().list(c.get('principal'), c.req.param('bot'))),
  );

  app.post('/bots/:bot/people', async (c) => {
    const request = await readJsonBody(c, createPersonSchema);
    return c.json(await people().create(c.get('principal'), c.req.param('bot'), request), 201);
  });

  app.patch('/bots/:bot/people/:id', async (c) => {
    const request = await readJsonBody(c, updatePersonSchema);
    return c.json(await people().update(c.get('principal'), c.req.param('bot'), c.req.param('id'), request));
  });

  app.delete('/bots/:bot/people/:id', async (c) =>
    c.json(await people().remove(c.get('principal'), c.req.param('bot'), c.req.param('id'))),
  );

  app.delete('/bots/:bot/people/:id/accounts', async (c) => {
    const { account } = await readJsonBody(c, accountRequestSchema);
    return c.json(
      await people().unlinkAccount(c.get('principal'), c.req.param('bot'), c.req.param('id'), account),
    );
  });

  app.post('/bots/:bot/link-codes', async (c) => {
    const { account } = await readJsonBody(c, accountRequestSchema);
    return c.json(await people().createLinkCode(c.get('principal'), c.req.param('bot'), account), 201);
  });

  app.post('/bots/:bot/link-codes/redeem', async (c) => {
    const request = await readJsonBody(c, redeemLinkCodeSchema);
    return c.json(await people().redeemLinkCode(c.get('principal'), c.req.param('bot'), request));
  });

  // POST, not GET: the code is a secret, and URLs end up in access logs.
  app.post('/bots/:bot/link-codes/status', async (c) => {
    const request = await readJsonBody(c, linkCodeStatusSchema);
    return c.json(await people().linkCodeStatus(c.get('principal'), c.req.param('bot'), request));
  });
}
