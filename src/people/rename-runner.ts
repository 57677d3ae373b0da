/**
 * @module Runs the rename passes (run-rename-pass.ts) in the background: a little after a change this process
 * made, at start, and when a poll finds requests another process left (a replica's change, a process killed
 * before its pass). Each pass waits out the people cache first (PEOPLE_CACHE_MS), so no writer of any replica
 * rewrites a queued chunk with the names it held before the change; changes of one bot within that wait share
 * one pass. A pass takes only requests older than RENAME_MIN_AGE_MS (a bot changed again and again, or another
 * replica's change just before a pass), and runs again for those it left.
 */
import type { Journal } from '../journal/journal.js';
import type { Logger } from '../logging/logger.js';
import { createHolderId } from '../runtime/holder-id.js';
import { RENAME_MIN_AGE_MS, runRenamePass } from './run-rename-pass.js';

export interface RenameRunner {
  /** Runs `bot`'s pass soon (a change was just committed); calls within the wait make one pass. */
  schedule(bot: string): void;
  /** Looks for waiting requests now, then every poll interval. */
  start(): void;
  /** Resolves once no pass is waiting or running (tests; a pass found busy keeps being retried). */
  settled(): Promise<void>;
  /** Stops the timers and waits for a pass running now; what is left waits in the journal. */
  close(): Promise<void>;
}

export interface RenameRunnerDeps {
  readonly journal: Journal;
  readonly wakeWriter: () => void;
  readonly logger: Logger;
  /** The wait before a pass (default: just over `minAgeMs`). */
  readonly settleMs?: number;
  /** Requests younger than this wait for a later pass (default RENAME_MIN_AGE_MS; tests lower it). */
  readonly minAgeMs?: number;
  /**
   * A bot changed again and again still gets its pass this long after the first change (default 5 s); that pass
   * takes the requests old enough by then, and an account changed within the last `minAgeMs` waits for the next.
   */
  readonly maxWaitMs?: number;
  /** How often the journal is asked for requests another process left (default 10 s). */
  readonly pollMs?: number;
  /** Life of a pass's lease (default 15 s): how long a killed replica holds up its pass. */
  readonly leaseMs?: number;
  /** Chunks queued per transaction (run-rename-pass.ts; default 2000). */
  readonly sliceSize?: number;
}

export function createRenameRunner(deps: RenameRunnerDeps): RenameRunner {
  const { journal, logger } = deps;
  const minAgeMs = deps.minAgeMs ?? RENAME_MIN_AGE_MS;
  const settleMs = deps.settleMs ?? minAgeMs + 50;
  const maxWaitMs = deps.maxWaitMs ?? 5000;
  const holder = createHolderId();
  const waiting = new Map<string, { timer: NodeJS.Timeout; firstAt: number }>();
  const running = new Map<string, Promise<void>>();
  let poller: NodeJS.Timeout | undefined;
  let closed = false;

  const schedule = (bot: string): void => {
    if (closed) return;
    const now = Date.now();
    const firstAt = waiting.get(bot)?.firstAt ?? now;
    clearTimeout(waiting.get(bot)?.timer);
    const delay = Math.max(0, Math.min(now + settleMs, firstAt + maxWaitMs) - now);
    const timer = setTimeout(() => {
      waiting.delete(bot);
      run(bot);
    }, delay);
    timer.unref();
    waiting.set(bot, { timer, firstAt });
  };

  const run = (bot: string): void => {
    // One pass per bot at a time here: a change during it is waited out and run after it.
    const current = running.get(bot);
    if (current !== undefined) {
      void current.then(() => schedule(bot));
      return;
    }
    const pass = runRenamePass(journal, bot, {
      holder,
      leaseMs: deps.leaseMs ?? 15_000,
      minAgeMs,
      ...(deps.sliceSize === undefined ? {} : { sliceSize: deps.sliceSize }),
    })
      .then((result) => {
        // Another replica runs it; if that one dies, its lease runs out and a retry here takes it over.
        if (result === 'busy') return schedule(bot);
        // Requests too young to take now: the next pass, one wait later, finds them old enough.
        if (result.tooYoung > 0) schedule(bot);
        if (result.accounts === 0) return;
        logger.info(
          { bot, accounts: result.accounts, chunks: result.chunks },
          'rename pass: stored chunks queued to be rewritten under their linked names',
        );
        if (result.chunks > 0) deps.wakeWriter();
      })
      .catch((error: unknown) =>
        logger.warn({ bot, err: error }, 'the rename pass failed; it runs again at the next poll'),
      )
      .finally(() => running.delete(bot));
    running.set(bot, pass);
  };

  const poll = async (): Promise<void> => {
    try {
      for (const bot of await journal.renames.botsWaiting()) {
        if (!waiting.has(bot) && !running.has(bot)) schedule(bot);
      }
      await journal.renames.dropFinished();
    } catch (error) {
      if (!closed) logger.warn({ err: error }, 'could not look for rename passes waiting in the journal');
    }
  };

  return {
    schedule,
    start() {
      if (closed || poller !== undefined) return;
      void poll();
      poller = setInterval(() => void poll(), deps.pollMs ?? 10_000);
      poller.unref();
    },
    async settled() {
      while (waiting.size > 0 || running.size > 0) {
        await Promise.all([...running.values()]);
        if (running.size === 0 && waiting.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      closed = true;
      clearInterval(poller);
      for (const { timer } of waiting.values()) clearTimeout(timer);
      waiting.clear();
      await Promise.all([...running.values()]);
    },
  };
}
