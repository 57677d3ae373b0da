/** @module Clean shutdown for long-running commands: close on SIGINT/SIGTERM, exit 0 if that worked. */
import type { Logger } from '../logging/logger.js';

/** On the first SIGINT or SIGTERM, logs, runs `close` and exits (1 if closing failed). */
export function closeOnSignal(logger: Logger, what: string, close: () => Promise<void>): void {
  const stop = (signal: string) => {
    logger.info({ signal }, `stopping ${what}`);
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, `${what} did not stop cleanly`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
