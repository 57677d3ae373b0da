/** @module Tests for Retry-After parsing, backoff bounds, abortable sleeps and the retry loop's stopping rules. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { computeBackoffMs, parseRetryAfterMs, runWithRetries, sleep } from './retry.js';

const backoff = { baseMs: 100, maxMs: 1_000 };

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
    // Date.parse would read these as years.
    assert.equal(parseRetryAfterMs('-1'), undefined);
    assert.equal(parseRetryAfterMs('2030'), 2_030_000);
    assert.equal(parseRetryAfterMs('-30'), undefined);
  });
});

describe('computeBackoffMs', () => {
  test('doubles per retry between half and all of the ceiling, capped at maxMs', () => {
    assert.equal(
      computeBackoffMs(0, backoff, () => 0),
      50,
    );
    assert.equal(
      computeBackoffMs(0, backoff, () => 1),
      100,
    );
    assert.equal(
      computeBackoffMs(2, backoff, () => 1),
      400,
    );
    assert.equal(
      computeBackoffMs(10, backoff, () => 1),
      1_000,
    );
  });
});

describe('sleep', () => {
  test('ends at once with the reason when the signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = sleep(60_000, controller.signal);
    controller.abort(new Error('shutting down'));
    await assert.rejects(pending, /shutting down/);
    assert.ok(Date.now() - started < 10_000);
  });

  test('does not start when the signal has already aborted', async () => {
    await assert.rejects(sleep(60_000, AbortSignal.abort(new Error('already gone'))), /already gone/);
  });
});

describe('runWithRetries', () => {
  const settings = { baseMs: 1, maxMs: 1, maxRetries: 2, maxRetryAfterMs: 5_000 };

  test('retries what classify allows, up to maxRetries, then rethrows the last error', async () => {
    let calls = 0;
    await assert.rejects(
      runWithRetries(
        async () => {
          calls++;
          throw new Error(`try ${calls}`);
        },
        { ...settings, classify: () => ({ retry: true }) },
      ),
      /try 3/,
    );
    assert.equal(calls, 3);
  });

  test('gives up at once on a Retry-After longer than it may wait', async () => {
    let calls = 0;
    await assert.rejects(
      runWithRetries(
        async () => {
          calls++;
          throw new Error('rate limited');
        },
        { ...settings, classify: () => ({ retry: true, retryAfterMs: 60_000 }) },
      ),
      /rate limited/,
    );
    assert.equal(calls, 1);
  });

  test('with clampRetryAfter, a Retry-After longer than it may wait is waited only that long, then retried', async () => {
    const delays: number[] = [];
    let calls = 0;
    const result = await runWithRetries(
      async () => {
        calls++;
        if (calls < 2) throw new Error('rate limited');
        return 'done';
      },
      {
        ...settings,
        maxRetryAfterMs: 5,
        clampRetryAfter: true,
        classify: () => ({ retry: true, retryAfterMs: 60_000 }),
        onRetry: (_e, _r, ms) => delays.push(ms),
      },
    );
    assert.equal(result, 'done');
    assert.deepEqual(delays, [5]);
  });

  test('waits the Retry-After it was told instead of its own backoff', async () => {
    const delays: number[] = [];
    let calls = 0;
    const result = await runWithRetries(
      async () => {
        calls++;
        if (calls < 2) throw new Error('busy');
        return 'done';
      },
      {
        ...settings,
        classify: () => ({ retry: true, retryAfterMs: 7 }),
        onRetry: (_e, _r, ms) => delays.push(ms),
      },
    );
    assert.equal(result, 'done');
    assert.deepEqual(delays, [7]);
  });
});
