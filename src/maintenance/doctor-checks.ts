/**
 * @module `memory-pool doctor`'s checks: each one a pass or a failure with the fix. They only read (the
 * embedder is asked for one vector, the journal's folder for its free space).
 */
import { statfsSync } from 'node:fs';
import type { MemoryPoolConfig } from '../config/config-types.js';
import type { Embedder } from '../embedding/embedder.js';
import { isMemoryPoolError } from '../errors/memory-pool-error.js';
import type { Journal } from '../journal/journal.js';
import { isLoopbackHost } from '../runtime/is-loopback-host.js';
import type { StoreAdmin } from '../store/store-admin.js';
import { type DoctorCheck, fail, pass } from './doctor-check.js';
import { countNoun } from '../runtime/count-noun.js';

/** Below this, a burst of saves could fill the disk and the journal would refuse them. */
export const MIN_FREE_BYTES = 256 * 1024 * 1024;
/** Messages wait for an idle gap before they are chunked (minutes); hours means the writer is stuck. */
export const MAX_PENDING_AGE_MS = 6 * 60 * 60 * 1000;

/** The store answers, and which version it reports. */
export async function checkStore(admin: StoreAdmin, url: string, openedHere: boolean): Promise<DoctorCheck> {
  try {
    const version = await admin.readVersion();
    const how = openedHere ? ' (the embedded store, opened by doctor: serve is not running)' : '';
    return pass('store reachable', `${url} answers, version ${version}${how}`);
  } catch (error) {
    return fail(
      'store reachable',
      (error as Error).message,
      'Start Qdrant (or `memory-pool serve`) and check store settings.',
    );
  }
}

/** The embedder answers with vectors of the dimension it (and the config) states. */
export async function checkEmbedder(
  embedder: Embedder,
): Promise<{ check: DoctorCheck; dimensions?: number }> {
  const name = 'embedder answers';
  const dimensionFix =
    'Set embedding.dimensions to what the model makes, or use a model that supports the configured size.';
  try {
    const [vector] = await embedder.embed(['memory-pool doctor checks the embedder']);
    const length = vector?.length ?? 0;
    if (embedder.dimensions !== undefined && embedder.dimensions !== length) {
      return {
        check: fail(
          name,
          `${embedder.model} returned ${length}-dimensional vectors, the config says ${embedder.dimensions}`,
          dimensionFix,
        ),
      };
    }
    // The offline model says which runtime computes it: TensorFlow.js is the slow fallback worth knowing of.
    const runtime = embedder.runtime === undefined ? '' : ` (on ${embedder.runtime})`;
    return {
      check: pass(name, `${embedder.model} returns ${length}-dimensional vectors${runtime}`),
      dimensions: length,
    };
  } catch (error) {
    // A remote embedder checks the size itself and refuses the answer: the same fix as above.
    const wrongSize = isMemoryPoolError(error) && error.code === 'embedding_dimension_mismatch';
    return {
      check: fail(
        name,
        (error as Error).message,
        wrongSize ? dimensionFix : 'Check embedding.baseUrl, the model name and the API key.',
      ),
    };
  }
}

/** How the journal check measures free space; tests give a full disk. */
export interface FreeSpace {
  /** Free bytes for an unprivileged writer under `dir` (default: statfs). */
  readonly freeBytes?: (dir: string) => number;
  /** Below this, the check fails (default MIN_FREE_BYTES). */
  readonly minFreeBytes?: number;
}

const statfsFreeBytes = (dir: string): number => {
  const stats = statfsSync(dir);
  return stats.bavail * stats.bsize;
};

/** The journal can be written and its disk has room. */
export async function checkJournal(
  journal: Journal,
  dataDir: string,
  space: FreeSpace = {},
): Promise<DoctorCheck> {
  const name = 'journal writable';
  const min = space.minFreeBytes ?? MIN_FREE_BYTES;
  try {
    await journal.probeWritable();
    const free = (space.freeBytes ?? statfsFreeBytes)(dataDir);
    const freeMb = Math.floor(free / 1024 / 1024);
    return free < min
      ? fail(
          name,
          `${dataDir} has ${freeMb} MB free`,
          `Free disk space (at least ${Math.ceil(min / 1024 / 1024)} MB) or move dataDir.`,
        )
      : pass(name, `${dataDir}, ${freeMb} MB free`);
  } catch (error) {
    return journalFailure(dataDir, error);
  }
}

/** The journal could not be opened or written. */
export function journalFailure(dataDir: string, error: unknown): DoctorCheck {
  return fail(
    'journal writable',
    (error as Error).message,
    `Make ${dataDir} a writable folder with free disk space (dataDir in the config).`,
  );
}

/** Nothing waits for hours to be stored. */
export async function checkBacklog(journal: Journal, now: number): Promise<DoctorCheck> {
  const name = 'pending backlog';
  const { pendingMessages, plannedChunks } = await journal.queueDepth();
  const oldest = await journal.oldestPending();
  if (oldest === undefined) return pass(name, 'nothing waits to be stored');
  const ageMinutes = Math.round((now - oldest.arrivedAt) / 60_000);
  const detail = `${countNoun(pendingMessages, 'message')} and ${countNoun(plannedChunks, 'chunk')} wait; the oldest arrived ${ageMinutes} min ago`;
  return now - oldest.arrivedAt > MAX_PENDING_AGE_MS
    ? fail(
        name,
        `${detail}${oldest.lastError ? ` (last error: ${oldest.lastError})` : ''}`,
        'Make sure `memory-pool serve` runs and reaches the store and the embedder; it retries on its own.',
      )
    : pass(name, detail);
}

/** Off loopback, every request needs a key. */
export function checkApiKeys(config: MemoryPoolConfig): DoctorCheck[] {
  const checks = [
    isLoopbackHost(config.listen.host) || config.apiKeys.length > 0
      ? pass(
          'API keys',
          isLoopbackHost(config.listen.host)
            ? `listening on loopback (${config.listen.host})`
            : `${countNoun(config.apiKeys.length, 'key')} configured`,
        )
      : fail(
          'API keys',
          `listening on ${config.listen.host} without API keys`,
          'Add apiKeys to the config, or listen on 127.0.0.1.',
        ),
  ];
  if (config.store.kind === 'embedded' && !isLoopbackHost(config.store.host) && !config.store.apiKey) {
    checks.push(
      fail(
        'store API key',
        `the embedded store listens on ${config.store.host} without a key`,
        'Set store.embedded.apiKey, or its host to 127.0.0.1.',
      ),
    );
  }
  return checks;
}
