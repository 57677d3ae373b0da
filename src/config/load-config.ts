/**
 * @module Start-up's one configuration step: file (or built-in defaults) + environment → a validated,
 * deep-frozen MemoryPoolConfig, or one InvalidConfigError listing every problem with its fix.
 */
import { resolve } from 'node:path';
import { applyEnvOverrides } from './apply-env-overrides.js';
import { checkConfig } from './check-config.js';
import { problemsFromIssues } from './config-fields.js';
import type { ConfigProblem } from './config-problems.js';
import { InvalidConfigError } from './config-problems.js';
import type { ParsedConfig } from './config-schema.js';
import { configSchema } from './config-schema.js';
import type { MemoryPoolConfig } from './config-types.js';
import { interpolateEnv } from './interpolate-env.js';
import { type ConfigSource, readConfigSource } from './read-config-file.js';

export interface LoadConfigOptions {
  /** From `--config`: must exist. Without it, ./memory-pool.yaml in `cwd` if present, else built-in defaults. */
  readonly configPath?: string;
  /** Default process.env; empty strings count as unset. */
  readonly env?: NodeJS.ProcessEnv;
  /** Default process.cwd(). */
  readonly cwd?: string;
}

/** Loads, validates and freezes the configuration; throws ConfigError (InvalidConfigError for bad values). */
export function loadConfig(options: LoadConfigOptions = {}): MemoryPoolConfig {
  const cwd = resolve(options.cwd ?? process.cwd());
  return loadConfigSource(readConfigSource(options.configPath, cwd), options.env ?? process.env, cwd);
}

/** loadConfig for a source already read (a file, or a section recorded in the journal). */
export function loadConfigSource(
  source: ConfigSource,
  env: NodeJS.ProcessEnv,
  cwd: string,
): MemoryPoolConfig {
  const interpolated = interpolateEnv(source.raw, env);
  const raw = interpolated.value as Record<string, unknown>;
  const early = { problems: interpolated.problems, origins: interpolated.origins };
  applyEnvOverrides(raw, env, cwd, early);

  const parsed = configSchema.safeParse(raw, { reportInput: true });
  const later = parsed.success ? checkConfig(parsed.data) : problemsFromIssues(parsed.error.issues);
  // A key whose variable was missing also fails the schema; its first, clearer message is enough.
  const reported = new Set(early.problems.map((problem) => problem.path));
  const problems: ConfigProblem[] = [
    ...early.problems,
    ...later.filter((problem) => !reported.has(problem.path)),
  ];
  if (problems.length > 0 || !parsed.success) {
    throw new InvalidConfigError(
      source.label,
      problems.map((problem) => withOrigin(problem, early.origins)),
    );
  }
  return deepFreeze(resolvePaths(parsed.data, source.baseDir));
}

function withOrigin(problem: ConfigProblem, origins: Map<string, string>): ConfigProblem {
  const envVar = origins.get(problem.path);
  return envVar === undefined ? problem : { ...problem, envVar };
}

// Relative paths mean "next to the config file", so a service started from any folder finds the same data.
function resolvePaths(config: ParsedConfig, baseDir: string): MemoryPoolConfig {
  const store =
    config.store.kind === 'embedded'
      ? { ...config.store, path: resolve(baseDir, config.store.path) }
      : config.store;
  const card = config.discord?.companion?.card;
  const discord =
    config.discord === undefined || card === undefined
      ? config.discord
      : { ...config.discord, companion: { ...config.discord.companion!, card: resolve(baseDir, card) } };
  return {
    ...config,
    store,
    dataDir: resolve(baseDir, config.dataDir),
    ...(discord === undefined ? {} : { discord }),
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}
