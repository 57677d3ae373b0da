/**
 * @module Ends an outage's wait promptly: chunks that failed because the store or the embedder could not be
 * reached back off for up to minutes each, so after a 60 s outage the backlog sat out its full backoff (87 s
 * to drain). Here those chunks are remembered per dependency; the dependency is probed every second or so
 * (a cheap call, instead of each chunk's own retry) and the moment it answers, or any write through it
 * succeeds, its waiting chunks are made due at once.
 */
import { withDeadline } from '../runtime/abort-deadline.js';

/** What a chunk write depends on and can wait out. */
export type WriteDependency = 'store' | 'embedder';

/** How often a dependency is probed while chunks wait for it. */
const PROBE_INTERVAL_MS = 1_000;
/**
 * A probe that answered but whose woken chunks failed again means a flapping dependency: each such wake
 * doubles the wait before the next probe may wake them again (up to this), so they are not retried every
 * second; a write that really succeeds resets it.
 */
const MAX_PROBE_INTERVAL_MS = 60_000;
/** A probe that hangs counts as failed: the writer must not stall behind it. */
const PROBE_TIMEOUT_MS = 2_000;

interface Watch {
  /** Chunk ids whose last attempt failed on this dependency with a retryable error. */
  readonly waiting: Set<string>;
  nextProbeAt: number;
  /** Wakes by a probe since the last write that succeeded (each doubles the probe interval). */
  wakesWithoutWrite: number;
}

export interface OutageRecoveryDeps {
  readonly probe: (dependency: WriteDependency) => Promise<void>;
  /** Makes these chunks due now (if they still wait). */
  readonly makeDue: (chunkIds: readonly string[]) => Promise<void>;
  readonly now: () => number;
}

export class OutageRecovery {
  readonly #watches = new Map<WriteDependency, Watch>();
  readonly #deps: OutageRecoveryDeps;

  constructor(deps: OutageRecoveryDeps) {
    this.#deps = deps;
  }

  /** These chunks failed on `dependency` with an error that a retry can fix (unreachable, timed out, 5xx). */
  failed(dependency: WriteDependency, chunkIds: readonly string[]): void {
    let watch = this.#watches.get(dependency);
    if (watch === undefined) {
      watch = { waiting: new Set(), nextProbeAt: this.#deps.now() + PROBE_INTERVAL_MS, wakesWithoutWrite: 0 };
      this.#watches.set(dependency, watch);
    }
    for (const id of chunkIds) watch.waiting.add(id);
  }

  /** A call through `dependency` succeeded: it is back, so what waits for it is due now. */
  async succeeded(dependency: WriteDependency): Promise<void> {
    const watch = this.#watches.get(dependency);
    if (watch === undefined) return;
    this.#watches.delete(dependency);
    if (watch.waiting.size > 0) await this.#deps.makeDue([...watch.waiting]);
  }

  /** When the next probe is due, or undefined when nothing waits for one. */
  nextProbeAt(): number | undefined {
    const times = [...this.#watches.values()].filter((w) => w.waiting.size > 0).map((w) => w.nextProbeAt);
    return times.length === 0 ? undefined : Math.min(...times);
  }

  /** Probes each dependency whose probe is due; those that answer have their chunks made due. */
  async probeDue(): Promise<void> {
    for (const [dependency, watch] of [...this.#watches]) {
      if (watch.waiting.size === 0 || this.#deps.now() < watch.nextProbeAt) continue;
      const answered = await answersWithin(() => this.#deps.probe(dependency), PROBE_TIMEOUT_MS);
      if (this.#watches.get(dependency) !== watch) continue; // a write settled it meanwhile
      if (!answered) {
        watch.nextProbeAt = this.#deps.now() + PROBE_INTERVAL_MS;
        continue;
      }
      // Woken chunks that fail again land in this watch, with the longer interval a flapping dependency earns.
      const waiting = [...watch.waiting];
      watch.waiting.clear();
      watch.wakesWithoutWrite += 1;
      watch.nextProbeAt =
        this.#deps.now() + Math.min(MAX_PROBE_INTERVAL_MS, PROBE_INTERVAL_MS * 2 ** watch.wakesWithoutWrite);
      await this.#deps.makeDue(waiting);
    }
  }
}

/** Whether `probe` resolved within `ms` (a rejection or a timeout is false). */
async function answersWithin(probe: () => Promise<void>, ms: number): Promise<boolean> {
  try {
    await withDeadline(ms, { onTimeout: (error) => error }, probe);
    return true;
  } catch {
    return false;
  }
}
