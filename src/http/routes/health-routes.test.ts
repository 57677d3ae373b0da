/**
 * @module `/ready` in public, and the MCP bot resource, say the journal failed, never its Postgres user, host,
 * port or database.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { ApiKeyConfig } from '../../config/config-types.js';
import { createServiceApp } from '../service-app.js';
import { createFakeServiceDeps, type FakeServiceDeps } from '../test-support/fake-service-deps.js';
import { discordKey, readerKey } from '../test-support/test-api-keys.js';

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

test('the MCP bot resource shows a non-admin key the journal failed, never its server; an admin key the cause', async () => {
  const fakeDeps = await createFakeServiceDeps({ config: { apiKeys: [readerKey, adminKey] } });
  after(() => fakeDeps.close());
  const app = createServiceApp({
    ...fakeDeps.deps,
    checkReadiness: async () => ({
      store: { ok: true },
      embedder: { ok: true },
      journal: { ok: false, error: CAUSE },
    }),
  });
  const bot = Object.keys(fakeDeps.deps.config.bots)[0]!;
  const readResource = async (key: string): Promise<string> => {
    const response = await app.request('/mcp', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'resources/read',
        params: { uri: `memory-pool://bots/${bot}` },
      }),
    });
    assert.equal(response.status, 200);
    return response.text();
  };
  const reader = await readResource(readerKey.key);
  assert.match(reader, /journal unreachable or not writable/);
  for (const detail of ['memorypool', 'db.internal', '5433', 'memories']) {
    assert.doesNotMatch(reader, new RegExp(detail), `a retrieve key read ${detail}`);
  }
  assert.match(await readResource(adminKey.key), /db\.internal:5433/);
});
