/** @module `/ready` in public says the journal failed, never its Postgres user, host, port or database. */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { ApiKeyConfig } from '../../config/config-types.js';
import { createServiceApp } from '../service-app.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../test-support/fake-service-deps.js';
import { discordKey } from '../test-support/test-api-keys.js';

const adminKey: ApiKeyConfig = {
  name: 'ops',
  key: 'ops-key-0123456789abcdef',
  bots: '*',
  sources: '*',
  scopes: ['admin'],
};
const CAUSE =
  'journal (Postgres) unreachable or not writable: password authentication failed for user "memorypool" (postgres://memorypool:***@db.internal:5433/memories)';

let fake: FakeServiceDeps | undefined;
after(() => fake?.close());

test('public /ready names no journal user, host, port or database; an admin key reads the cause', async () => {
  fake = await createFakeServiceDeps({ config: { apiKeys: [discordKey, adminKey] } });
  const app = createServiceApp({
    ...fake.deps,
    checkReadiness: async () => ({
      store: { ok: true },
      embedder: { ok: true },
      journal: { ok: false, error: CAUSE },
    }),
  });
  const callers: Record<string, string>[] = [
    {},
    { authorization: `Bearer ${discordKey.key}` },
    { authorization: 'Bearer wrong' },
  ];
  for (const headers of callers) {
    const response = await app.request('/ready', { headers });
    assert.equal(response.status, 503);
    const text = await response.text();
    for (const detail of ['memorypool', 'db.internal', '5433', 'memories']) {
      assert.doesNotMatch(text, new RegExp(detail), `${JSON.stringify(headers)} read ${detail}`);
    }
    assert.match(text, /journal unreachable or not writable/);
  }
  const admin = await app.request('/ready', { headers: { authorization: `Bearer ${adminKey.key}` } });
  assert.equal(admin.status, 503);
  assert.equal(
    ((await admin.json()) as { checks: { journal: { error: string } } }).checks.journal.error,
    CAUSE,
  );
});
