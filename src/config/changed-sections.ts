/** @module Which top-level sections of the config differ between two loads (a reload names them). */
import { isDeepStrictEqual } from 'node:util';
import type { MemoryPoolConfig } from './config-types.js';

/** The top-level keys (`listen`, `bots`, `apiKeys`, ...) whose values differ, in a stable order. */
export function changedSections(before: MemoryPoolConfig, after: MemoryPoolConfig): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys]
    .filter(
      (key) =>
        !isDeepStrictEqual(
          (before as unknown as Record<string, unknown>)[key],
          (after as unknown as Record<string, unknown>)[key],
        ),
    )
    .sort();
}
