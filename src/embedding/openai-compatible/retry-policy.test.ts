/** @module Tests for Retry-After parsing, backoff bounds and the retry loop's stopping rules. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ProviderError } from '../../errors/memory-pool-error.js';
import { computeBackoffMs, parseRetryAfterMs, type RetryPolicy, runWithRetries } from './retry-policy.js';

const policy: RetryPolicy = { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 5_000 };
const fastPolicy: RetryPolicy = { ...policy, baseDelayMs: 1, maxDelayMs: 1 };

describe('parseRetryAfterMs', () => {
  test('reads delay-seconds, including fractions', () => {
    assert.equal(parseRetryAfterMs('3'), 3_000);
    assert.equal(parseRetryAfterMs(' 0.25 '), 250);
  });

  test('reads an HTTP date relative to now, never negative', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    assert.equal(parseRetryAfterMs('Wed, 21 Oct 2015 07:28:10 GMT', now), 10_000);
    assert.equal(parseRetryAfterMs('Wed, 21 Oct 2015 07:27:00 GMT', now), 0);
  });

  test('ignores a missing or unreadable header', () => {
    assert.equal(parseRetryAfterMs(null), undefined);
    assert.equal(parseRetryAfterMs(''), undefined);
    assert.equal(parseRetryAfterMs('soon'), undefined);
  });
});

describe('computeBackoffMs', () => {
  test('doubles per retry between half and all of the ceiling, capped at maxDelayMs', () => {
    assert.equal(
      computeBackoffMs(0, policy, () => 0),
      50,
    );
    assert.equal(
      computeBackoffMs(0, policy, () => 1),
      100,
    );
    assert.equal(
      computeBackoffMs(2, policy, () => 1),
      400,
    );
    assert.equal(
      computeBackoffMs(10, policy, () => 1),
      1_000,
    );
  });
});

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
