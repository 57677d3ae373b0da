/**
 * @module What serve does when its config file changes: read and validate the whole file again, as start-up
 * does, and swap in its API keys for every later request. Nothing else is applied live (ports, bots, store,
 * journal and embedding are wired once); a change there is named in one line saying it needs a restart.
 */
import { statSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type { LiveApiKeys } from '../auth/live-api-keys.js';
import { changedSections } from '../config/changed-sections.js';
import type { MemoryPoolConfig } from '../config/config-types.js';
import type { Logger } from '../logging/logger.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import { isLoopbackHost } from '../runtime/is-loopback-host.js';
import { findWidenedApiKeys } from './widened-api-keys.js';

/**
 * `applied`: new keys in use; `unchanged`: the keys did not change; `refused`: the keys in use stay;
 * `held`: the file widens a key and has not stood still for a poll since it was first read so: the keys in use
 * stay until a later reload (a file half written must not grant what its finished form does not).
 */
export type ReloadOutcome = 'applied' | 'unchanged' | 'refused' | 'held';

export interface ConfigReloaderOptions {
  /** Reads and validates the whole config again, as start-up did; throws ConfigError when it is invalid. */
  readonly load: () => MemoryPoolConfig;
  /** The config serve started with: what is running (its listen host, bots, store...). */
  readonly running: MemoryPoolConfig;
  readonly apiKeys: LiveApiKeys;
  readonly metrics: ServiceMetrics;
  readonly logger: Logger;
  /** The file's path, named in each line logged. */
  readonly label: string;
  /**
   * When set, a widening is applied only once the file has stood still: the read held is at least `settleMs`
   * old and the file's stamp (`statFile`: inode, size, mtime) is the same as when it was read. Without it, any
   * second read of a torn file (a SIGHUP ms later) would apply what a writer is still in the middle of.
   */
  readonly settle?: {
    readonly statFile: () => string | undefined;
    readonly settleMs: number;
    /** A monotonic clock in ms (default performance.now). */
    readonly now?: () => number;
  };
}

/** The file's inode, size and mtime as one string (undefined when it cannot be read): any write changes it. */
export function stampFile(path: string): string | undefined {
  const stat = statSync(path, { throwIfNoEntry: false, bigint: true });
  return stat === undefined ? undefined : `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
}

/** The problems of a config error on one line (start-up prints one per line); they never hold a key's value. */
function describeProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\n\s*-\s*/g, '; ').replace(/\s*\n\s*/g, ' ');
}

/** Returns the reload: one synchronous read, so two reloads never interleave. */
export function createConfigReloader(options: ConfigReloaderOptions): () => ReloadOutcome {
  const { running, apiKeys, metrics, logger, label } = options;
  // The keys of the last read, when it widened a key: the same keys read next (once settled) are applied.
  let heldKeys: MemoryPoolConfig['apiKeys'] | undefined;
  let held: { stamp: string | undefined; at: number } | undefined;
  const now = options.settle?.now ?? (() => performance.now());
  const refuse = (reason: string): ReloadOutcome => {
    heldKeys = undefined;
    metrics.configReloads.inc({ outcome: 'refused' });
    logger.warn({ config: label }, `config file not applied, the API keys in use stay: ${reason}`);
    return 'refused';
  };
  return () => {
    // Stamped before the read, so a write during the read counts as a change.
    const stamp = options.settle?.statFile();
    let config: MemoryPoolConfig;
    try {
      config = options.load();
    } catch (error) {
      return refuse(describeProblem(error));
    }
    // The file's own listen.host is not applied live: what counts is where this process listens now.
    if (config.apiKeys.length === 0 && !isLoopbackHost(running.listen.host)) {
      return refuse(
        `apiKeys is empty, but serve listens on "${running.listen.host}", which is reachable from other machines; ` +
          'without API keys anyone there could read and erase every memory. Keep at least one key, or restart on 127.0.0.1',
      );
    }
    const needRestart = changedSections(running, config).filter((section) => section !== 'apiKeys');
    if (needRestart.length > 0) {
      logger.warn(
        { config: label, sections: needRestart },
        `config changed ${needRestart.join(', ')}: not applied until serve restarts (only apiKeys apply live)`,
      );
    }
    if (isDeepStrictEqual(config.apiKeys, apiKeys.current.keys)) {
      heldKeys = undefined;
      metrics.configReloads.inc({ outcome: 'unchanged' });
      return 'unchanged';
    }
    const widened = findWidenedApiKeys(apiKeys.current.keys, config.apiKeys);
    const sameAsHeld =
      isDeepStrictEqual(config.apiKeys, heldKeys) && (options.settle === undefined || held?.stamp === stamp);
    const settled =
      options.settle === undefined ||
      (held !== undefined && stamp !== undefined && now() - held.at >= options.settle.settleMs);
    if (widened.length > 0 && !(sameAsHeld && settled)) {
      // A read like the one held keeps its time: the file must stand still from the first such read.
      if (!sameAsHeld) held = { stamp, at: now() };
      heldKeys = config.apiKeys;
      metrics.configReloads.inc({ outcome: 'held' });
      logger.info(
        { config: label, keys: widened },
        'config file widens API keys: applied once the file stands still for a poll',
      );
      return 'held';
    }
    heldKeys = undefined;
    apiKeys.replace(config.apiKeys);
    metrics.configReloads.inc({ outcome: 'applied' });
    logger.info(
      { config: label, keys: config.apiKeys.map((key) => key.name) },
      'API keys reloaded from the config file',
    );
    return 'applied';
  };
}
