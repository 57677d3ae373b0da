/**
 * @module Structured logs (pino) with secrets redacted wherever they might appear: readable lines on a
 * terminal, one JSON object a line otherwise (for log collectors).
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';
import { readEnv } from '../runtime/read-env.js';

export type { Logger };

/** `pretty` for people at a terminal, `json` for machines. */
export type LogFormat = 'pretty' | 'json';
export const LOG_FORMATS: readonly LogFormat[] = ['pretty', 'json'];

/** Paths pino blanks out, so an API key never reaches a log line even if an object carrying it is logged. */
const REDACTED_PATHS = [
  'apiKey',
  '*.apiKey',
  '*.*.apiKey',
  'key',
  '*.key',
  // The Discord bot token (discord.token, or a client's options) is a credential like a key.
  'token',
  '*.token',
  '*.*.token',
  'headers.authorization',
  'headers["api-key"]',
  'headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers["api-key"]',
  'req.headers["x-api-key"]',
];

/** What a redacted path shows: `[redacted]` for a value, the value itself when it is null or undefined. */
function censorSecret(value: unknown): unknown {
  return value === null || value === undefined ? value : '[redacted]';
}

export interface CreateLoggerOptions {
  readonly name?: string;
  readonly level?: string;
  /** Default: `pretty` when stdout is a terminal, else `json`. */
  readonly format?: LogFormat;
  /** Where lines go (default stdout); tests pass a stream. */
  readonly destination?: NodeJS.WritableStream;
  /** Where LOG_LEVEL is read (default process.env). */
  readonly env?: NodeJS.ProcessEnv;
}

/** The format to use when none was asked for: people read terminals, collectors read pipes and files. */
export function defaultLogFormat(stream: { isTTY?: boolean } = process.stdout): LogFormat {
  return stream.isTTY ? 'pretty' : 'json';
}

/**
 * Creates the process logger; level from LOG_LEVEL (default info; empty counts as unset, as for every
 * variable), silent under the test runner unless asked.
 */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const env = options.env ?? process.env;
  const level =
    options.level ?? readEnv(env, 'LOG_LEVEL') ?? (readEnv(env, 'NODE_TEST_CONTEXT') ? 'silent' : 'info');
  const settings = {
    name: options.name ?? 'memory-pool',
    level,
    // Only a secret that is there is redacted: an unset key (null) shows as unset, not as one hidden.
    redact: { paths: REDACTED_PATHS, censor: censorSecret },
  };
  const format = options.format ?? defaultLogFormat();
  // Without a stream both write to fd 1 through sonic-boom, which survives a reader that went away (EPIPE).
  const destination = options.destination;
  if (format === 'json') {
    return destination === undefined ? pino(settings) : pino(settings, destination as DestinationStream);
  }
  // Formatted in-process and written synchronously, so the last lines before a crash are not lost in a worker.
  const pretty = pinoPretty({
    destination: destination ?? 1,
    sync: true,
    colorize: ((destination ?? process.stdout) as { isTTY?: boolean }).isTTY === true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
  });
  return pino(settings, pretty);
}
