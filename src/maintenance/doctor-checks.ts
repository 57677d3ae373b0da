/**
 * @module `memory-pool doctor`'s checks: each one a pass or a failure with the fix. They only read (the
 * embedder is asked for one vector, the journal's folder for its free space).
 */
import { statfsSync } from 'node:fs';
import type { MemoryPoolConfig } from '../config/config-types.js';
import type { Embedder } from '../embedding/embedder.js';
import type { MessageJournal } from '../journal/message-journal.js';
import { isLoopbackHost } from '../runtime/is-loopback-host.js';
import type { StoreAdmin } from '../store/store-admin.js';

export interface DoctorCheck {
  readonly name: string;
  readonly ok: boolean;
  /** What was found. */
  readonly detail: string;
  /** What to do, on a failure. */
  readonly fix?: string;
}

const pass = (name: string, detail: string): DoctorCheck => ({ name, ok: true, detail });
const fail = (name: string, detail: string, fix: string): DoctorCheck => ({ name, ok: false, detail, fix });

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
  try {
    const [vector] = await embedder.embed(['memory-pool doctor checks the embedder']);
    const length = vector?.length ?? 0;
    if (embedder.dimensions !== undefined && embedder.dimensions !== length) {
      return {
        check: fail(
          name,
          `${embedder.model} returned ${length}-dimensional vectors, the config says ${embedder.dimensions}`,
          'Set embedding.dimensions to what the model makes, or use a model that supports the configured size.',
        ),
      };
    }
    return {
      check: pass(name, `${embedder.model} returns ${length}-dimensional vectors`),
      dimensions: length,
    };
  } catch (error) {
    return {
      check: fail(name, (error as Error).message, 'Check embedding.baseUrl, the model name and the API key.'),
    };
  }
}

/** Each bot's collection fits what memory-pool and st-qdrant-memory write and search. */
export async function checkCollections(
  deps: { readonly admin: StoreAdmin; readonly journal: MessageJournal },
  config: MemoryPoolConfig,
  embedder: { readonly model: string; readonly dimensions: number | undefined },
): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  for (const bot of Object.values(config.bots)) {
    const collection = deps.journal.routes.activeCollection(bot.collection);
    const name = `bot ${bot.name}: collection ${collection}`;
    const details = await deps.admin.readCollection(collection);
    if (details === undefined) {
      checks.push(pass(name, 'not created yet: the first save creates it with the embedder’s size'));
      continue;
    }
    const vectors = details.layout.vectors as { size?: number; distance?: string } | undefined;
    if (typeof vectors?.size !== 'number' || details.layout.sparseVectors !== undefined) {
      checks.push(
        fail(
          name,
          `uses named or sparse vectors (${JSON.stringify(details.layout)}), which memory-pool and st-qdrant-memory cannot write`,
          `Point bots.${bot.name}.collection at another collection (memory-pool creates it on first save).`,
        ),
      );
      continue;
    }
    const problems: string[] = [];
    if (embedder.dimensions !== undefined && vectors.size !== embedder.dimensions) {
      problems.push(`holds ${vectors.size}-dimensional vectors, the embedder makes ${embedder.dimensions}`);
    }
    if (vectors.distance !== 'Cosine') problems.push(`uses ${vectors.distance} distance, not Cosine`);
    const recorded = deps.journal.collectionModel(collection);
    if (recorded && recorded.model !== embedder.model) {
      problems.push(`was written with ${recorded.model}, the config embeds with ${embedder.model}`);
    }
    if (problems.length > 0) {
      checks.push(
        fail(
          name,
          problems.join('; '),
          `Configure the model that made the collection again, or move it to the new model with \`memory-pool reembed --bot ${bot.name} --to <file>\`.`,
        ),
      );
    } else {
      checks.push(
        pass(
          name,
          `${details.pointsCount} points, ${vectors.size}-d Cosine, model ${recorded?.model ?? 'not recorded yet'}`,
        ),
      );
    }
    const messageIdsIndex = details.payloadIndexes.messageIds;
    checks.push(
      messageIdsIndex === 'text'
        ? fail(
            `bot ${bot.name}: no full-text index on messageIds`,
            `${collection} has a full-text index on messageIds: st-qdrant-memory's duplicate check then matches words, not the whole id list`,
            `Delete it: curl -X DELETE <store>/collections/${collection}/index/messageIds`,
          )
        : pass(
            `bot ${bot.name}: no full-text index on messageIds`,
            messageIdsIndex === undefined ? 'no index on messageIds' : `a ${messageIdsIndex} index`,
          ),
    );
  }
  return checks;
}

/** The journal can be written and its disk has room. */
export function checkJournal(journal: MessageJournal, dataDir: string): DoctorCheck {
  const name = 'journal writable';
  try {
    journal.probeWritable();
    const stats = statfsSync(dataDir);
    const free = stats.bavail * stats.bsize;
    const freeMb = Math.floor(free / 1024 / 1024);
    return free < MIN_FREE_BYTES
      ? fail(
          name,
          `${dataDir} has ${freeMb} MB free`,
          `Free disk space (at least ${MIN_FREE_BYTES / 1024 / 1024} MB) or move dataDir.`,
        )
      : pass(name, `${dataDir}, ${freeMb} MB free`);
  } catch (error) {
    return fail(name, (error as Error).message, `Make ${dataDir} writable and free disk space.`);
  }
}

/** Nothing waits for hours to be stored. */
export function checkBacklog(journal: MessageJournal, now: number): DoctorCheck {
  const name = 'pending backlog';
  const { pendingMessages, plannedChunks } = journal.queueDepth();
  const oldest = journal.oldestPending();
  if (oldest === undefined) return pass(name, 'nothing waits to be stored');
  const ageMinutes = Math.round((now - oldest.arrivedAt) / 60_000);
  const detail = `${pendingMessages} messages and ${plannedChunks} chunks wait; the oldest arrived ${ageMinutes} min ago`;
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
            : `${config.apiKeys.length} keys configured`,
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
