/**
 * @module Finds and parses the YAML file: `--config`, else ./memory-pool.yaml, else none (built-in
 * defaults). Returns plain data for the schema, with YAML's quirks that would corrupt values taken out.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { ConfigError } from '../errors/memory-pool-error.js';

/** The file looked for in the working folder when `--config` is not given. */
export const DEFAULT_CONFIG_FILE = 'memory-pool.yaml';

export interface ConfigSource {
  /** The file's absolute path, or `built-in defaults`: named in every error. */
  readonly label: string;
  /** Relative paths in the config resolve against this folder. */
  readonly baseDir: string;
  readonly raw: Record<string, unknown>;
}

/** Locates and parses the config file; throws ConfigError for a missing `--config` file or bad YAML. */
export function readConfigSource(configPath: string | undefined, cwd: string): ConfigSource {
  const path = configPath === undefined ? resolve(cwd, DEFAULT_CONFIG_FILE) : resolve(cwd, configPath);
  if (!existsSync(path)) {
    if (configPath === undefined) return { label: 'built-in defaults', baseDir: cwd, raw: {} };
    throw new ConfigError(
      '--config',
      `file not found: ${path}. Check the path, or leave --config out to use ./${DEFAULT_CONFIG_FILE} or the built-in defaults`,
    );
  }
  return { label: path, baseDir: dirname(path), raw: parseYaml(readText(path), path) };
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (cause) {
    throw new ConfigError(
      '--config',
      `cannot read ${path}: ${(cause as Error).message}. Point --config at a readable file`,
      cause,
    );
  }
}

/** Parses YAML text into the plain data the schema reads. */
export function parseYaml(text: string, label: string): Record<string, unknown> {
  // Big integers stay exact (a Discord id written unquoted would otherwise lose its last digits).
  const document = parseDocument(text, { intAsBigInt: true });
  const [error] = document.errors;
  if (error !== undefined) {
    const where =
      error.linePos?.[0] === undefined
        ? ` at offset ${error.pos[0]}`
        : ` at line ${error.linePos[0].line}, column ${error.linePos[0].col}`;
    // Only the position and the parser's code: its message quotes the source ("...extra characters: |<rest of
    // the line>"), and the line may hold an API key or a token.
    throw new ConfigError(
      label,
      `YAML syntax error${where} (${error.code}). Fix the file's syntax there; a value starting with one of | > @ \` % ! & * [ { ' " must be quoted`,
    );
  }
  const data = normalize(readDocument(document, label));
  if (data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data) || data === null) {
    throw new ConfigError(
      label,
      'the file must be a mapping of keys (listen:, store:, bots:, ...). See memory-pool.example.yaml',
    );
  }
  return data as Record<string, unknown>;
}

/**
 * The document as plain data. An unquoted value starting with `*` is a YAML alias, and an API key or token
 * may start with one: the parser's "Unresolved alias" error quotes it whole, so it is named here by its
 * length only, and the parser's error is not kept as the cause (a log would print it).
 */
function readDocument(document: ReturnType<typeof parseDocument>, label: string): unknown {
  try {
    return document.toJS();
  } catch (error) {
    const alias = /Unresolved alias[^:]*:\s*(\S+)/.exec((error as Error).message);
    if (alias === null) throw error;
    throw new ConfigError(
      label,
      `YAML alias error: a value written as "*" and ${alias[1]!.length} more characters (not shown: it may be a key or a token) reads as a reference to an anchor, and no anchor has that name. Quote the value ("*...") if it is one`,
    );
  }
}

// A key written with no value (`embedded:`) means "not set", like an empty environment variable.
function normalize(value: unknown): unknown {
  if (value === null) return undefined;
  if (typeof value === 'bigint')
    return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (Array.isArray(value)) return value.map((item) => normalize(item) ?? null);
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).map(
      ([key, item]) => [key, normalize(item)] as const,
    );
    return Object.fromEntries(entries.filter(([, item]) => item !== undefined));
  }
  return value;
}
