import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TEST_DIMENSIONS } from '../config/test-support/test-bot.js';
import type { Embedder } from '../embedding/embedder.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';
import { cacheProbe, runProbe } from './readiness-checks.js';

const never = () => new Promise<void>(() => {});

test('a probe that never answers is reported not ready once the timeout passes', async () => {
  assert.deepEqual(await runProbe(never, 50), {
    ok: false,
    error: 'no answer within 50 ms (readiness.timeoutMs)',
  });
  assert.deepEqual(await runProbe(() => {}, 50), { ok: true });
  assert.deepEqual(await runProbe(() => Promise.reject(new Error('connection refused')), 50), {
    ok: false,
    error: 'connection refused',
  });
});

test('a cached probe is asked once per ttl, timeouts included, and a hung one is never started twice', async () => {
  let clock = 0;
  let calls = 0;
  let answer: () => void = () => {};
  const check = cacheProbe(
    () => {
      calls++;
      return new Promise<void>((resolve) => {
        answer = resolve;
      });
    },
    { ttlMs: 5000, timeoutMs: 20, now: () => clock },
  );
  assert.equal((await check()).ok, false, 'hung: timed out');
  clock = 4999;
  assert.equal((await check()).ok, false, 'the timeout is reused within the ttl');
  assert.equal(calls, 1);
  clock = 5000;
  const waiting = check();
  answer();
  assert.deepEqual(await waiting, { ok: true }, 'after the ttl the same call is waited on again');
  assert.equal(calls, 1, 'the hung call was not started twice');
  clock = 20_000;
  const fresh = check();
  answer();
  assert.deepEqual(await fresh, { ok: true });
  assert.equal(calls, 2);
});

describe('GET /ready with an embedder that hangs', () => {
  let service: TestService;
  let probes = 0;
  /** Answers every hung probe, so the service can close however the test ended. */
  const release: (() => void)[] = [];
  before(async () => {
    const hashing = new HashingEmbedder({ dimensions: TEST_DIMENSIONS });
    const hanging: Embedder = {
      model: hashing.model,
      dimensions: hashing.dimensions,
      inputWindow: hashing.inputWindow,
      embed: (texts) => hashing.embed(texts),
      probe: () => {
        probes++;
        return new Promise<void>((resolve) => release.push(resolve));
      },
    };
    service = await startTestService({
      embedder: hanging,
      // 1 s, not less: the store's and the journal's own probes share the bound and must answer within it on a
      // loaded machine.
      config: { readiness: { timeoutMs: 1000, embedderCacheMs: 60_000 } },
    });
  });
  after(async () => {
    for (const answer of release) answer();
    await service.close();
  });

  test('answers 503 naming the embedder within readiness.timeoutMs, and polling does not call it again', {
    timeout: 20_000,
  }, async () => {
    for (let poll = 0; poll < 5; poll++) {
      // Without the bound this would wait for the embedder forever; give up well before the test's timeout.
      const response = await fetch(`${service.url}/ready`, { signal: AbortSignal.timeout(10_000) });
      assert.equal(response.status, 503);
      const body = (await response.json()) as {
        ready: boolean;
        checks: Record<string, { ok: boolean; error?: string }>;
      };
      assert.equal(body.ready, false);
      assert.equal(body.checks.store?.ok, true);
      assert.equal(body.checks.journal?.ok, true);
      assert.deepEqual(body.checks.embedder, {
        ok: false,
        error: 'no answer within 1000 ms (readiness.timeoutMs)',
      });
    }
    assert.equal(probes, 1);
  });
});
