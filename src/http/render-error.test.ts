/** @module In-process tests of how errors become HTTP answers: the envelope, statuses and headers. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Hono } from 'hono';
import { ProviderError, ValidationError } from '../errors/memory-pool-error.js';
import { createLogger } from '../logging/logger.js';
import { createErrorHandler, renderNotFound } from './error-handler.js';

function appThrowing(error: Error): Hono {
  const app = new Hono();
  app.get('/boom', () => {
    throw error;
  });
  app.notFound(renderNotFound);
  app.onError(createErrorHandler(createLogger({ level: 'silent' })));
  return app;
}

test('a provider that said when to come back is answered with Retry-After in whole seconds', async () => {
  const app = appThrowing(
    new ProviderError('embedding_rate_limited', 'slow down', { retryable: true, retryAfterMs: 1_500 }),
  );
  const response = await app.request('/boom');
  assert.equal(response.status, 502);
  assert.equal(response.headers.get('retry-after'), '2');
  assert.deepEqual(await response.json(), {
    error: { code: 'embedding_rate_limited', message: 'slow down' },
  });
});

test('an error without a wait sends no Retry-After, and a field when it names one', async () => {
  const response = await appThrowing(new ValidationError('messages[0].text', 'must be a string')).request(
    '/boom',
  );
  assert.equal(response.status, 400);
  assert.equal(response.headers.get('retry-after'), null);
  assert.deepEqual(await response.json(), {
    error: { code: 'validation_failed', message: 'must be a string', field: 'messages[0].text' },
  });
});

test('an unknown route and an unexpected error use the same envelope, without internals', async () => {
  const app = appThrowing(new TypeError('secret internals'));
  const missing = await app.request('/nope', { method: 'POST' });
  assert.equal(missing.status, 404);
  assert.deepEqual(await missing.json(), {
    error: { code: 'not_found', message: 'no route POST /nope; see docs/api.md for the API' },
  });
  const crashed = await app.request('/boom');
  assert.equal(crashed.status, 500);
  const text = await crashed.text();
  assert.doesNotMatch(text, /secret internals/);
  assert.equal((JSON.parse(text) as { error: { code: string } }).error.code, 'internal');
});
