/** @module Clean shutdown for long-running commands: close on SIGINT/SIGTERM, exit 0 if that worked. */
import { closeOfflineModel } from '../embedding/offline/offline-embedder.js';
import type { Logger } from '../logging/logger.js';

/**
 * On the first SIGINT or SIGTERM, logs, runs `close` and exits (1 if closing failed). The offline model's
 * pool is stopped last, whatever `close` did: it is per process, not per service, and exiting while one of
 * its workers computes on ONNX Runtime would abort the process instead of exiting.
 */
export function closeOnSignal(logger: Logger, what: string, close: () => Promise<void>): void {
  const stop = (signal: string) => {
    logger.info({ signal }, `stopping ${what}`);
    void close()
      .then(
        () => 0,
        (error: unknown) => {
          logger.error({ err: error }, `${what} did not stop cleanly`);
          return 1;
        },
      )
      .then(async (code) => {
        await closeOfflineModel();
        process.exit(code);
      });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
