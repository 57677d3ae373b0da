/**
 * @module `${VAR}` inside YAML string values, so secrets and per-host values stay out of the file.
 * Replaced after parsing, so a value can never inject YAML structure.
 */
import type { ConfigProblem } from './config-problems.js';
import { formatPath } from './config-problems.js';
import { readEnv } from '../runtime/read-env.js';

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export interface Interpolated {
  readonly value: unknown;
  readonly problems: ConfigProblem[];
  /** Key path → the variable that supplied its whole value (named in that key's errors). */
  readonly origins: Map<string, string>;
}

/** Replaces every `${VAR}` in string values; an unset variable is a problem naming the key and the variable. */
export function interpolateEnv(value: unknown, env: NodeJS.ProcessEnv): Interpolated {
  const problems: ConfigProblem[] = [];
  const origins = new Map<string, string>();
  const visit = (node: unknown, path: PropertyKey[]): unknown => {
    if (typeof node === 'string') return replaceReferences(node, formatPath(path));
    if (Array.isArray(node)) return node.map((item, index) => visit(item, [...path, index]));
    if (typeof node === 'object' && node !== null) {
      return Object.fromEntries(
        Object.entries(node).map(([key, item]) => [key, visit(item, [...path, key])]),
      );
    }
    return node;
  };
  const replaceReferences = (text: string, key: string): string => {
    const names = [...text.matchAll(REFERENCE)].map((match) => match[1]!);
    if (names.length === 1 && text.trim() === `\${${names[0]}}`) origins.set(key, names[0]!);
    return text.replace(REFERENCE, (reference, name: string) => {
      const found = readEnv(env, name);
      if (found !== undefined) return found;
      problems.push({
        path: key,
        message: `${reference} refers to the environment variable ${name}, which is not set. Set ${name}, or write the value in the file`,
      });
      return '';
    });
  };
  return { value: visit(value, []), problems, origins };
}
