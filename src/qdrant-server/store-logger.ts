/** @module The slice of a logger the embedded store writes to, so it needs no logging library of the service's. */

/** pino's `(fields, message)` call shape; pino's Logger satisfies it, and so does a test double. */
export type LogMethod = (fields: Record<string, unknown>, message: string) => void;

/** Where the store reports requests that failed inside it (never request bodies or keys). */
export interface StoreLogger {
  readonly error: LogMethod;
  readonly warn: LogMethod;
  readonly info: LogMethod;
}
