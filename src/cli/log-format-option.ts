/** @module `--log-format`, shared by the commands that run a server. */
import { Option } from 'commander';
import { LOG_FORMATS } from '../logging/logger.js';

/** Readable lines on a terminal by default, JSON when piped; the flag overrides either way. */
export function logFormatOption(): Option {
  return new Option(
    '--log-format <format>',
    'log lines: pretty (default on a terminal) or json (default otherwise)',
  ).choices(LOG_FORMATS);
}
