/**
 * @module Runs the rename of stored chunks (queue-renames.ts) after a link changes, in the background. It
 * waits out the people cache first (PEOPLE_CACHE_MS), so no writer of any replica rewrites a queued chunk
 * with the names it held before the change.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Journal } from '../journal/journal.js';
import type { AccountKey } from '../journal/journal-people.js';
import type { Logger } from '../logging/logger.js';
import { PEOPLE_CACHE_MS } from './people-names.js';
import { queueRenames } from './queue-renames.js';

export interface RenameScheduler {
  /** Queues the rewrite of `bot`'s stored chunks of `accounts`, a little later. */
  schedule(bot: string, accounts: readonly AccountKey[]): void;
  /** Resolves once every scheduled pass has finished (the service waits for them before it closes). */
  settled(): Promise<void>;
}

export function createRenameScheduler(deps: {
  readonly journal: Journal;
  readonly wakeWriter: () => void;
  readonly logger: Logger;
  readonly delayMs?: number;
}): RenameScheduler {
  const running = new Set<Promise<void>>();
  return {
    schedule(bot, accounts) {
      if (accounts.length === 0) return;
      const pass: Promise<void> = (async () => {
        await sleep(deps.delayMs ?? PEOPLE_CACHE_MS + 100);
        const queued = await queueRenames(deps.journal, bot, accounts, Date.now());
        if (queued === 0) return;
        deps.logger.info(
          { bot, chunks: queued },
          'stored chunks queued to be rewritten under their linked names',
        );
        deps.wakeWriter();
      })()
        .catch((error: unknown) =>
          deps.logger.warn(
            { bot, err: error },
            'the rename of stored chunks failed; change the link again to retry',
          ),
        )
        .finally(() => running.delete(pass));
      running.add(pass);
    },
    async settled() {
      await Promise.all([...running]);
    },
  };
}
