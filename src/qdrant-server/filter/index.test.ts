import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as filter from './index.js';

// The engine and the HTTP layer code against these names: a change here must be deliberate.
test('the filter module exports exactly its public functions', () => {
  assert.deepEqual(Object.keys(filter).sort(), [
    'assertJsonPath',
    'compileFilter',
    'copyJson',
    'deletePayloadPaths',
    'emptyJsonObject',
    'inheritsNothing',
    'mergePayload',
    'parseDateTime',
    'parseFilter',
    'parsePayloadSelector',
    'selectPayload',
    'setOwn',
    'valuesAtPath',
  ]);
});
