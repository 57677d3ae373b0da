/** @module Tests for the provider retry loop's stopping rules. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ProviderError } from '../../errors/memory-pool-error.js';
import { type RetryPolicy, runWithRetries } from './retry-policy.js';

const policy: RetryPolicy = { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 5_000 };
const fastPolicy: RetryPolicy = { ...policy, baseDelayMs: 1, maxDelayMs: 1 };

describe('runWithRetries', () => {
  const retryable = () => new ProviderError('embedding_failed', 'flaky', { retryable: true });

  test('retries retryable errors up to maxRetries, then rethrows the last', async () => {
    let calls = 0;
    await assert.rejects(
      runWithRetries(async () => {
        calls++;
        throw retryable();
      }, fastPolicy),
      /flaky/,
    );
    assert.equal(calls, 3);
  });

  test('does not retry non-retryable errors or errors that are not ProviderErrors', async () => {
    for (const error of [
      new ProviderError('embedding_failed', 'bad', { retryable: false }),
      new TypeError('bug'),
    ]) {
      let calls = 0;
      await assert.rejects(
        runWithRetries(async () => {
          calls++;
          throw error;
        }, fastPolicy),
      );
      assert.equal(calls, 1);
    }
  });

  test('stops waiting when the signal aborts', async () => {
    const controller = new AbortController();
    const slow: RetryPolicy = { ...policy, baseDelayMs: 60_000, maxDelayMs: 60_000 };
    const pending = runWithRetries(
      async () => {
        throw retryable();
      },
      slow,
      { signal: controller.signal, onRetry: () => controller.abort(new Error('gave up')) },
    );
    await assert.rejects(pending, /gave up/);
  });
});
