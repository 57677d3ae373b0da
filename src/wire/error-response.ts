/** @module The one error body every service endpoint answers with. */
import type { ErrorCode } from '../errors/memory-pool-error.js';

export interface ErrorResponse {
  readonly error: {
    readonly code: ErrorCode;
    readonly message: string;
    /** The request field (e.g. `messages[2].text`) or config key at fault, when there is one. */
    readonly field?: string;
  };
}
