/**
 * @module The one mapping from whatever an operation threw to what a caller may see: every face (the HTTP error
 * handler, the MCP tools and resources) answers through it, so internals never leak and the log is never empty.
 */
import { isMemoryPoolError, JournalError, MemoryPoolError } from '../../errors/memory-pool-error.js';
import { toJournalError } from '../../journal/journal-health.js';
import type { Logger } from '../../logging/logger.js';

/** What an unknown failure says to the caller: its message may hold paths or SQL, so the log has the rest. */
export const INTERNAL_FAILURE_MESSAGE = 'internal error; see the service log';

/**
 * Maps `thrown` to a MemoryPoolError and logs it: a journal that cannot be written becomes its JournalError,
 * a 5xx refusal is logged as a warning, and anything unknown is logged as an error and answered as `internal`
 * without its message. 4xx refusals are the caller's to fix and are not logged.
 */
export function toServiceFailure(thrown: unknown, logger: Logger): MemoryPoolError {
  // The journal's writes are guarded where they happen; a read that hits a full or broken disk lands here.
  const error = toJournalError(thrown) ?? thrown;
  if (isMemoryPoolError(error)) {
    if (error.status >= 500) {
      // A journal error's detail (which server, the driver's words) is the log's, not the caller's.
      const detail = error instanceof JournalError ? error.detail : undefined;
      logger.warn(
        { code: error.code, err: error.message, ...(detail === undefined ? {} : { detail }) },
        'request failed',
      );
    }
    return error;
  }
  logger.error({ err: error }, 'unexpected error');
  return new MemoryPoolError('internal', INTERNAL_FAILURE_MESSAGE, { status: 500, cause: error });
}
