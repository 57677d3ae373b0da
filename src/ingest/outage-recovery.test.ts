import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OutageRecovery, type WriteDependency } from './outage-recovery.js';

function createRecovery() {
  const state = { now: 0, up: new Set<WriteDependency>(), woken: [] as string[][], probes: 0 };
  const recovery = new OutageRecovery({
    probe: async (dependency) => {
      state.probes += 1;
      if (!state.up.has(dependency)) throw new Error(`${dependency} is down`);
    },
    makeDue: async (ids) => void state.woken.push([...ids]),
    now: () => state.now,
  });
  return { recovery, state };
}

test('chunks waiting for the store are woken by the first probe it answers, not by an embedder probe', async () => {
  const { recovery, state } = createRecovery();
  recovery.failed('store', ['a', 'b']);
  recovery.failed('embedder', ['c']);
  assert.equal(recovery.nextProbeAt(), 1_000);
  state.now = 1_000;
  await recovery.probeDue();
  assert.deepEqual(state.woken, [], 'nothing answered');
  state.up.add('store');
  state.now = 2_000;
  await recovery.probeDue();
  assert.deepEqual(state.woken, [['a', 'b']]);
});

test('a write that succeeds wakes what waits for its dependency at once, without a probe', async () => {
  const { recovery, state } = createRecovery();
  recovery.failed('embedder', ['a']);
  await recovery.succeeded('store');
  assert.deepEqual(state.woken, []);
  await recovery.succeeded('embedder');
  assert.deepEqual(state.woken, [['a']]);
  assert.equal(recovery.nextProbeAt(), undefined, 'nothing waits: no probe is scheduled');
});

test('a probe that answers while writes keep failing (flapping) wakes its chunks less and less often', async () => {
  const { recovery, state } = createRecovery();
  state.up.add('store');
  const wakeTimes: number[] = [];
  recovery.failed('store', ['a']);
  for (state.now = 0; state.now <= 20_000; state.now += 500) {
    const before = state.woken.length;
    await recovery.probeDue();
    if (state.woken.length > before) {
      wakeTimes.push(state.now);
      recovery.failed('store', ['a']); // the woken write failed again
    }
  }
  assert.deepEqual(wakeTimes, [1_000, 3_000, 7_000, 15_000]);
  await recovery.succeeded('store');
  recovery.failed('store', ['a']);
  assert.equal(recovery.nextProbeAt(), state.now + 1_000, 'a write that worked resets the interval');
});
