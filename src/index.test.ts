/** @module Pins the package's public names, so adding or removing one shows up in review. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as publicApi from './index.js';

test('the runtime exports are exactly these', () => {
  assert.deepEqual(Object.keys(publicApi).sort(), [
    'MemoryPoolApiError',
    'MemoryPoolClient',
    'MemoryPoolNetworkError',
    'MemoryPoolTimeoutError',
    'createMcpServer',
    'forgetRequestSchema',
    'retrieveRequestSchema',
    'saveMessageSchema',
    'saveRequestSchema',
  ]);
});

test('the exported type names are exactly these', () => {
  // Types vanish at runtime, so they are read from the export lists in the source.
  const source = readFileSync(new URL('./index.ts', import.meta.url), 'utf8');
  const typeNames = [...source.matchAll(/export type \{([^}]*)\}/g)].flatMap((m) =>
    m[1]!.split(',').map((name) => name.trim()),
  );
  assert.deepEqual(typeNames.filter(Boolean).sort(), [
    'BotStatsResponse',
    'CallOptions',
    'CreateMcpServerOptions',
    'ErrorCode',
    'ErrorResponse',
    'FetchLike',
    'ForgetLogEntry',
    'ForgetLogQuery',
    'ForgetLogResponse',
    'ForgetRequest',
    'ForgetResponse',
    'HealthResponse',
    'MemoryBackend',
    'MemoryPoolClientOptions',
    'ReadyResponse',
    'RetrieveHit',
    'RetrieveRequest',
    'RetrieveResponse',
    'SaveMessage',
    'SaveRequest',
    'SaveResponse',
  ]);
});

test('the index re-exports names only: no star exports that would widen the surface unseen', () => {
  const source = readFileSync(new URL('./index.ts', import.meta.url), 'utf8');
  assert.doesNotMatch(source, /export \*/);
});
