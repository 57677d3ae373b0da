/**
 * @module After `/memory link` gives a code, its answer follows the code: polled until it is said on the other
 * account (or expires), then edited to say so, so the person learns at once, where they asked, that their
 * accounts are now one, or that someone else said their code (docs/people.md).
 */
import type { Logger } from '../../../logging/logger.js';
import type { LinkCodeStatusResponse } from '../../../wire/people.js';

/** How often a code given on Discord is checked: a journal read, cheap, and a reply edited within seconds. */
export const LINK_CODE_POLL_MS = 5_000;

export interface LinkCodeWatches {
  /** Checks the code every poll until it is not `waiting` any more, then reports that status once. */
  watch(
    check: () => Promise<LinkCodeStatusResponse>,
    report: (status: LinkCodeStatusResponse) => Promise<unknown>,
  ): void;
  /** Stops every watch (the Discord connection closes). */
  stop(): void;
}

export function createLinkCodeWatches(everyMs: number, logger: Pick<Logger, 'warn'>): LinkCodeWatches {
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  return {
    watch(check, report) {
      const step = async () => {
        if (stopped) return;
        try {
          const status = await check();
          // An expired code answers `expired`, so every watch ends within the code's 10 minutes and a poll.
          if (status.status !== 'waiting') {
            if (!stopped) await report(status);
            return;
          }
        } catch (error) {
          logger.warn({ err: error }, 'discord: could not follow a link code');
          return;
        }
        schedule();
      };
      const schedule = () => {
        if (stopped) return;
        const timer = setTimeout(() => {
          timers.delete(timer);
          void step();
        }, everyMs);
        timer.unref();
        timers.add(timer);
      };
      schedule();
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
