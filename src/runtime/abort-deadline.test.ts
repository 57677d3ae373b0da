import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { raceAbort, withDeadline } from './abort-deadline.js';

const never = () => new Promise<never>(() => {});

describe('raceAbort', () => {
  test('passes the work’s result and failure through while the signal is quiet', async () => {
    assert.equal(await raceAbort(Promise.resolve(7), new AbortController().signal), 7);
    await assert.rejects(raceAbort(Promise.reject(new Error('boom')), undefined), /boom/);
  });

  test('rejects with the reason as soon as the signal aborts, before the work ends', async () => {
    const controller = new AbortController();
    const waiting = raceAbort(never(), controller.signal);
    controller.abort(new Error('client went away'));
    await assert.rejects(waiting, /client went away/);
    await assert.rejects(raceAbort(Promise.resolve(1), AbortSignal.abort(new Error('already'))), /already/);
  });
});

describe('withDeadline', () => {
  const timeout = new Error('too slow');
  test('returns what finishes in time, and hands the work a signal that has not aborted', async () => {
    const result = await withDeadline(1_000, { onTimeout: () => timeout }, async (signal) => signal.aborted);
    assert.equal(result, false);
  });

  test('stops waiting at the deadline for work that ignores its signal, and aborts that signal', async () => {
    let seen: AbortSignal | undefined;
    const run = withDeadline(20, { onTimeout: () => timeout }, (signal) => {
      seen = signal;
      return never();
    });
    await assert.rejects(run, (error) => error === timeout);
    assert.equal(seen?.aborted, true);
  });

  test('onTimeout decides what a failure after the deadline becomes; failures before it pass unchanged', async () => {
    const own = new Error('the store refused');
    const keepOwn = (error: unknown) => (error === own ? own : timeout);
    await assert.rejects(
      withDeadline(20, { onTimeout: keepOwn }, async (signal) => {
        await sleep(40);
        throw signal.aborted ? own : new Error('unexpected');
      }),
      (error) => error === timeout,
      'the deadline rejects first',
    );
    await assert.rejects(
      withDeadline(1_000, { onTimeout: keepOwn }, async () => Promise.reject(own)),
      (e) => e === own,
    );
  });

  test('the caller’s own abort reaches the work and is not reported as a timeout', async () => {
    const controller = new AbortController();
    const run = withDeadline(1_000, { signal: controller.signal, onTimeout: () => timeout }, (signal) =>
      raceAbort(never(), signal),
    );
    controller.abort(new Error('client went away'));
    await assert.rejects(run, /client went away/);
  });
});
