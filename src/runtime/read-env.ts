/** @module The one reader of environment variables: blank values count as unset. */

/** Reads an environment variable; empty (or blank) strings count as unset. */
export function readEnv(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}
