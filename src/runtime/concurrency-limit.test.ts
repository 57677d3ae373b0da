/** @module Tests for ConcurrencyLimit: the bound holds, waiters go in order, a failure frees its slot, holds, aborts. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConcurrencyLimit } from './concurrency-limit.js';

test('at most `limit` tasks run at once, and the others start in the order they came', async () => {
  const limit = new ConcurrencyLimit(2);
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const results = await Promise.all(
    [0, 1, 2, 3, 4].map((i) =>
      limit.run(async () => {
        started.push(i);
        running += 1;
        most = Math.max(most, running);
        await sleep(5);
        running -= 1;
        return i * 10;
      }),
    ),
  );
  assert.deepEqual(results, [0, 10, 20, 30, 40]);
  assert.equal(most, 2);
  assert.deepEqual(started, [0, 1, 2, 3, 4]);
  assert.equal(limit.running, 0);
});

test('a failed task rejects its own promise and frees its slot for the next', async () => {
  const limit = new ConcurrencyLimit(1);
  const failed = limit.run(() => Promise.reject(new Error('endpoint down')));
  const next = limit.run(async () => 'ran');
  await assert.rejects(failed, /endpoint down/);
  assert.equal(await next, 'ran');
  assert.equal(limit.running, 0);
});

test('a limit below 1 is refused', () => {
  assert.throws(() => new ConcurrencyLimit(0), /limit must be an integer >= 1, got 0/);
});

test('a hold starts nothing before it ends, a narrowed bound runs one at a time, and `ahead` goes first', async () => {
  const limit = new ConcurrencyLimit(3);
  limit.setLimit(1);
  const until = Date.now() + 40;
  limit.holdUntil(until);
  const started: Array<[string, number]> = [];
  let running = 0;
  let most = 0;
  const task = (name: string) => async () => {
    started.push([name, Date.now()]);
    running += 1;
    most = Math.max(most, running);
    await sleep(2);
    running -= 1;
  };
  await Promise.all([limit.run(task('fresh')), limit.run(task('retry'), { ahead: true })]);
  assert.deepEqual(
    started.map(([name]) => name),
    ['retry', 'fresh'],
  );
  assert.ok(
    started.every(([, at]) => at >= until),
    'a task started inside the hold',
  );
  assert.equal(most, 1);
  limit.setLimit(10);
  assert.equal(limit.limit, 3);
});

test('an aborted waiter leaves the line at once with the reason, and the ones behind it still run', {
  timeout: 5_000,
}, async () => {
  const limit = new ConcurrencyLimit(1);
  let release!: () => void;
  const held = limit.run(() => new Promise<void>((resolve) => (release = resolve)));
  const controller = new AbortController();
  let ran = false;
  const aborted = limit.run(
    async () => {
      ran = true;
    },
    { signal: controller.signal },
  );
  const behind = limit.run(async () => 'behind ran');
  controller.abort(new Error('forgotten'));
  // Settles while the slot is still held: it does not wait for the slot to give it back.
  await assert.rejects(aborted, /forgotten/);
  release();
  await held;
  assert.equal(await behind, 'behind ran');
  assert.equal(ran, false);
  assert.equal(limit.running, 0);
  await assert.rejects(
    limit.run(async () => 'late', { signal: controller.signal }),
    /forgotten/,
  );
});
