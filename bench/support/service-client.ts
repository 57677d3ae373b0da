/** @module The benchmarks' HTTP calls to the service: timed POSTs and waiting for the writer to drain. */

export interface TimedResult {
  readonly ms: number;
  /** HTTP status, or 0 when the request failed without an answer (refused, reset, timed out). */
  readonly status: number;
}

/** POSTs JSON and reads the whole answer; never throws. */
export async function timedPost(url: string, body: unknown, timeoutMs = 10_000): Promise<TimedResult> {
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.arrayBuffer();
    return { ms: performance.now() - started, status: response.status };
  } catch {
    return { ms: performance.now() - started, status: 0 };
  }
}

interface StatsBody {
  messages: { pending: number };
  chunks: { planned: number };
}

/**
 * Waits until no bot has messages waiting for a chunk or chunks waiting for their write (every acknowledged
 * message stored); throws after `timeoutMs`. Errors while the service or store restarts are waited out.
 */
export async function waitForDrain(
  serviceUrl: string,
  bots: readonly string[],
  timeoutMs: number,
): Promise<number> {
  const started = Date.now();
  let last = '';
  while (Date.now() - started < timeoutMs) {
    let waiting = 0;
    try {
      for (const bot of bots) {
        const response = await fetch(`${serviceUrl}/bots/${bot}/stats`, {
          signal: AbortSignal.timeout(5_000),
        });
        if (!response.ok) throw new Error(`stats ${bot}: HTTP ${response.status}`);
        const stats = (await response.json()) as StatsBody;
        waiting += stats.messages.pending + stats.chunks.planned;
      }
      if (waiting === 0) return Date.now() - started;
      last = `${waiting} messages and chunks still waiting`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the service did not drain within ${timeoutMs} ms (${last})`);
}

/** The p-th percentile (nearest rank) of `values`, or NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
