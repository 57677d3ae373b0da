/** @module Reads a whole-document JSON export (Discord, ChatGPT), refusing a file that is not JSON with the fix. */
import { refuseInput } from './imported-history.js';
import { readTextFile } from './read-text-file.js';

/** The parsed document; a parse error names the file, the line it stopped at, and how to get a good file. */
export function readJsonFile(file: string, fix: string): unknown {
  const text = readTextFile(file);
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    const line = at ? text.slice(0, Number(at[1])).split('\n').length : undefined;
    throw refuseInput(line === undefined ? file : `${file}:${line}`, `not JSON (${message})`, fix);
  }
}

/** A plain object, or undefined (arrays, null and primitives are not). */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
