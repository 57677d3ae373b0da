/** @module Assertions on Qdrant's response envelopes (qdrant-subset.md §0.1, §0.2), for raw replies and qdrant-js errors. */
import assert from 'node:assert/strict';
import type { HttpReply } from './send-http.js';

/** Asserts a 200 `{"result", "status":"ok", "time"}` envelope and returns `result`. */
// biome-ignore lint/suspicious/noExplicitAny: callers assert on the server's arbitrary JSON.
export function expectOk(reply: HttpReply): any {
  assert.equal(reply.status, 200, `expected 200, got ${reply.status}: ${reply.text}`);
  assert.equal(reply.json?.status, 'ok', `status is not "ok": ${reply.text}`);
  assert.equal(typeof reply.json.time, 'number', 'time must be a number');
  assert.ok('result' in reply.json, 'result key missing');
  return reply.json.result;
}

/**
 * Asserts an error envelope `{"status":{"error": msg}, "time"}` with no `result` key.
 * A string `message` must equal the error exactly; a RegExp must match it.
 */
export function expectError(reply: HttpReply, status: number, message: string | RegExp): string {
  assert.equal(reply.status, status, `expected ${status}, got ${reply.status}: ${reply.text}`);
  const error = reply.json?.status?.error;
  assert.equal(typeof error, 'string', `no status.error in body: ${reply.text}`);
  assert.equal(typeof reply.json.time, 'number', 'time must be a number');
  assert.ok(!('result' in reply.json), `error envelope must not have a result key: ${reply.text}`);
  if (typeof message === 'string') assert.equal(error, message);
  else assert.match(error, message);
  return error;
}

/** Awaits a qdrant-js call that must fail, and checks the HTTP status and `status.error` text it carried. */
export async function expectClientError(call: Promise<unknown>, status: number, message: string | RegExp) {
  let caught: unknown;
  try {
    await call;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught, 'the client call was expected to fail');
  const failure = caught as { status?: number; data?: { status?: { error?: string } } };
  assert.equal(failure.status, status, `client error status: ${String(caught)}`);
  const text = failure.data?.status?.error ?? '';
  if (typeof message === 'string') assert.equal(text, message);
  else assert.match(text, message);
}

/** Asserts two float lists are equal within `tolerance` (f32 scores and vectors differ in the last digits). */
export function assertClose(actual: readonly number[], expected: readonly number[], tolerance = 1e-5): void {
  assert.equal(actual.length, expected.length, `length ${actual.length} != ${expected.length}`);
  actual.forEach((value, i) => {
    const want = expected[i] as number;
    assert.ok(Math.abs(value - want) <= tolerance, `[${i}] ${value} is not within ${tolerance} of ${want}`);
  });
}

/** Sorts ids the way Qdrant orders them: numbers first, numerically, then UUID strings. */
export function sortIds<T extends number | string>(ids: readonly T[]): T[] {
  return [...ids].sort((a, b) => {
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    if (typeof a === 'number') return -1;
    if (typeof b === 'number') return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  });
}
