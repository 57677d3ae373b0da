/**
 * @module The one error loadConfig throws for a bad configuration: every problem found, each naming its key
 * and the fix, so a user fixes the whole file in one pass instead of one restart per typo.
 */
import { ConfigError } from '../errors/memory-pool-error.js';

/** One thing wrong with the configuration. */
export interface ConfigProblem {
  /** Dotted key path, arrays as `[i]`: `listen.port`, `apiKeys[0].key`. */
  readonly path: string;
  /** `<what is wrong>. <how to fix it>` */
  readonly message: string;
  /** The environment variable the value came from, when it did not come from the file. */
  readonly envVar?: string;
}

/** A ConfigError that carries every problem; `field` is the first problem's key. */
export class InvalidConfigError extends ConfigError {
  readonly problems: readonly ConfigProblem[];

  constructor(source: string, problems: readonly ConfigProblem[]) {
    const first = problems[0] ?? { path: '(config)', message: 'invalid configuration' };
    super(first.path, first.message);
    this.problems = problems;
    // The base message names one key; with several problems the list is what the user needs to read.
    this.message = formatProblems(source, problems);
  }
}

/**
 * Joins path segments (a zod issue's path) as `bots.mythos.chunk`, `apiKeys[0].key`; the empty path is `root`,
 * the name of the whole document where the reader meets it (the config file, a request body, a line).
 */
export function formatPath(path: readonly PropertyKey[], root = '(top level)'): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text === '' ? root : text;
}

/** Renders the problems as the lines a user reads at start-up. */
export function formatProblems(source: string, problems: readonly ConfigProblem[]): string {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  const lines = problems.map((problem) => {
    const origin = problem.envVar === undefined ? '' : ` (from ${problem.envVar})`;
    return `  - ${problem.path}${origin}: ${problem.message}`;
  });
  return [`invalid config (${source}): ${count}`, ...lines].join('\n');
}
