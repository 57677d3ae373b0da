/** @module Structured JSON logs (pino) with secrets redacted wherever they might appear. */
import { pino, type Logger } from 'pino';

export type { Logger };

/** Paths pino blanks out, so an API key never reaches a log line even if an object carrying it is logged. */
const REDACTED_PATHS = [
  'apiKey',
  '*.apiKey',
  '*.*.apiKey',
  'key',
  '*.key',
  'headers.authorization',
  'headers["api-key"]',
  'headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers["api-key"]',
  'req.headers["x-api-key"]',
];

/** Creates the process logger; level from LOG_LEVEL (default info), silent under the test runner unless asked. */
export function createLogger(options: { name?: string; level?: string } = {}): Logger {
  const level = options.level ?? process.env.LOG_LEVEL ?? (process.env.NODE_TEST_CONTEXT ? 'silent' : 'info');
  return pino({
    name: options.name ?? 'memory-pool',
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  });
}
