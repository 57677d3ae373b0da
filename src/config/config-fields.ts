/**
 * @module The field kinds the config schema is built from. Each one words its own failure as
 * `expected <what>, got <value>. <fix>`, so every message in the schema reads the same way.
 */
import { z } from 'zod';
import type { ConfigProblem } from './config-problems.js';
import { formatPath } from './config-problems.js';

/** How a value reads inside a message: strings quoted, absent values named. */
export function showValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'an empty value';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return JSON.stringify(value);
}

function expected(what: string, fix: string) {
  return (issue: { input?: unknown }) =>
    issue.input === undefined
      ? `is required: ${what}. ${fix}`
      : `expected ${what}, got ${showValue(issue.input)}. ${fix}`;
}

// Environment variables and `${VAR}` interpolation only produce strings, so numbers may arrive as "3102".
function readNumericString(value: unknown): unknown {
  return typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
}

/** A whole number in [min, max]. */
export function integer(min: number, max: number, fix: string) {
  const error = expected(`an integer from ${min} to ${max}`, fix);
  return z.preprocess(
    readNumericString,
    z.number({ error }).int({ error }).min(min, { error }).max(max, { error }),
  );
}

/** A number in [min, max], fractions allowed. */
export function decimal(min: number, max: number, fix: string) {
  const error = expected(`a number from ${min} to ${max}`, fix);
  return z.preprocess(readNumericString, z.number({ error }).min(min, { error }).max(max, { error }));
}

/** A non-empty string, trimmed. */
export function text(fix: string) {
  const error = expected('a non-empty string', fix);
  return z.string({ error }).trim().min(1, { error });
}

/** A credential: like text, but its value never appears in a message (messages end up in logs). */
export function secret(minLength: number, fix: string) {
  const error = (issue: { input?: unknown }) =>
    issue.input === undefined
      ? `is required. ${fix}`
      : typeof issue.input === 'string'
        ? `is ${issue.input.trim().length} characters long, at least ${minLength} are needed. ${fix}`
        : `expected a string. ${fix}`;
  return z.string({ error }).trim().min(Math.max(1, minLength), { error });
}

/** One of a fixed set of words. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T, fix: string) {
  return z.enum(values, { error: expected(`one of ${values.join(' | ')}`, fix) });
}

/** An http(s) URL; the trailing slash is dropped because paths are appended to it. */
export function httpUrl(fix: string) {
  const error = expected('an http:// or https:// URL', fix);
  return text(fix)
    .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), { error })
    .transform((value) => value.replace(/\/+$/, ''));
}

/** A browser origin, `http(s)://host[:port]` without a path; kept as the URL parser writes it. */
export function webOrigin(fix: string) {
  const error = expected('a web origin such as http://localhost:8000 (scheme, host and port only)', fix);
  return text(fix)
    .refine(
      (value) => {
        if (!URL.canParse(value)) return false;
        const url = new URL(value);
        return (
          /^https?:$/.test(url.protocol) &&
          url.pathname === '/' &&
          url.search === '' &&
          url.hash === '' &&
          url.username === ''
        );
      },
      { error },
    )
    .transform((value) => new URL(value).origin);
}

const ALLOWED_KEYS = 'Allowed keys here: ';

/** A mapping with a fixed set of keys: an unknown key is a typo to report, never to ignore. */
export function section<T extends z.core.$ZodLooseShape>(shape: T) {
  const allowed = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `${ALLOWED_KEYS}${allowed.join(', ')}`
        : expected('a mapping of keys to values', `${ALLOWED_KEYS}${allowed.join(', ')}.`)(issue),
  });
}

/** Turns zod's issues into problems, one per unknown key, with a spelling suggestion when one is close. */
export function problemsFromIssues(issues: readonly z.core.$ZodIssue[]): ConfigProblem[] {
  return issues.flatMap((issue): ConfigProblem[] => {
    if (issue.code !== 'unrecognized_keys') return [{ path: formatPath(issue.path), message: issue.message }];
    const allowed = issue.message.slice(ALLOWED_KEYS.length).split(', ');
    return issue.keys.map((key) => {
      const near = allowed.find((candidate) => isNearMiss(key, candidate));
      const hint = near === undefined ? 'Remove it or check its spelling' : `Did you mean "${near}"?`;
      return { path: formatPath([...issue.path, key]), message: `unknown key. ${hint} ${issue.message}.` };
    });
  });
}

// Case-insensitive edit distance of at most 2: catches `maxChar`, `scorethreshold`, `apikey`.
function isNearMiss(typo: string, candidate: string): boolean {
  const a = typo.toLowerCase();
  const b = candidate.toLowerCase();
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]! <= 2;
}
