import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { SerialQueue } from './serial-queue.js';

test('tasks run one at a time, in the order enqueued, whatever each one takes', async () => {
  const queue = new SerialQueue();
  const log: string[] = [];
  const task = (name: string, ms: number) => async () => {
    log.push(`${name} start`);
    await sleep(ms);
    log.push(`${name} end`);
    return name;
  };
  const results = await Promise.all([
    queue.enqueue(task('a', 20)),
    queue.enqueue(task('b', 1)),
    queue.enqueue(task('c', 5)),
  ]);
  assert.deepEqual(results, ['a', 'b', 'c']);
  assert.deepEqual(log, ['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
});

test('a failed task rejects its own promise only: the next one still runs', async () => {
  const queue = new SerialQueue();
  const failed = queue.enqueue(() => Promise.reject(new Error('store down')));
  const next = queue.enqueue(() => 'ran');
  await assert.rejects(failed, /store down/);
  assert.equal(await next, 'ran');
});

test('idle waits for the tasks enqueued so far and for those they enqueue meanwhile', async () => {
  const queue = new SerialQueue();
  const done: string[] = [];
  void queue.enqueue(async () => {
    await sleep(5);
    done.push('first');
    // Enqueued while the queue drains (a back-filled page handing over its messages).
    void queue.enqueue(async () => {
      await sleep(5);
      done.push('second');
    });
  });
  await queue.idle();
  assert.deepEqual(done, ['first', 'second']);
});

test('enqueued counts every task, so a waiter on more than the queue sees one that came meanwhile', async () => {
  const queue = new SerialQueue();
  assert.equal(queue.enqueued, 0);
  await Promise.all([
    queue.enqueue(() => 1),
    queue.enqueue(() => Promise.reject(new Error('x'))).catch(() => 2),
  ]);
  assert.equal(queue.enqueued, 2);
});
