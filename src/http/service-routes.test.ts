/** @module Pins the service's public route list, so adding or removing a route shows up in review. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MemoryPoolConfig } from '../config/config-types.js';
import { testBot } from '../config/test-support/test-bot.js';
import { createServiceApp } from './service-app.js';
import type { ServiceDeps } from '../core/service-deps.js';

test('the service answers exactly these routes', () => {
  const config = {
    apiKeys: [],
    limits: { maxBodyBytes: 1_048_576, maxMessagesPerSave: 500, maxTextChars: 16_000 },
    bots: { mythos: testBot('mythos') },
  } as Partial<MemoryPoolConfig> as MemoryPoolConfig;
  // Registering routes reads only the config; no request is served here.
  const app = createServiceApp({ config } as Partial<ServiceDeps> as ServiceDeps);
  const routes = new Set(app.routes.filter((r) => r.path !== '/*').map((r) => `${r.method} ${r.path}`));
  assert.deepEqual([...routes].sort(), [
    'DELETE /bots/:bot/people/:id',
    'DELETE /bots/:bot/people/:id/accounts',
    'DELETE /mcp',
    'GET /admin/forget-log',
    'GET /bots/:bot/forget-selection',
    'GET /bots/:bot/people',
    'GET /bots/:bot/points',
    'GET /bots/:bot/points/:id',
    'GET /bots/:bot/stats',
    'GET /health',
    'GET /mcp',
    'GET /metrics',
    'GET /ready',
    'GET /ui',
    'GET /ui/:file',
    'GET /whoami',
    'PATCH /bots/:bot/people/:id',
    'POST /bots/:bot/link-codes',
    'POST /bots/:bot/link-codes/redeem',
    'POST /bots/:bot/link-codes/status',
    'POST /bots/:bot/people',
    'POST /forget',
    'POST /mcp',
    'POST /retrieve',
    'POST /save',
    'PUT /bots/:bot/points/:id/text',
  ]);
});
