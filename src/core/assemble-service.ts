/**
 * @module The one wiring of the service, with no sockets: journal-routed collections, metered embedders,
 * guards, the parts index, the chunk writer (not started), the capabilities and the operations over them.
 * `memory-pool serve` (src/service/start-memory-service.ts) and the in-process tests both call it, so a
 * test cannot lack what production has (live routing, metering, followers).
 */
import { LiveApiKeys } from '../auth/live-api-keys.js';
import type { EmbeddingConfig, MemoryPoolConfig } from '../config/config-types.js';
import { createEmbedder } from '../embedding/create-embedder.js';
import type { Embedder } from '../embedding/embedder.js';
import { ChunkWriter } from '../ingest/chunk-writer.js';
import type { Journal } from '../journal/journal.js';
import type { Logger } from '../logging/logger.js';
import { meterEmbedder } from '../metrics/metered-embedder.js';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import { dropOrphanParts } from '../parts/drop-orphan-parts.js';
import { dropAllStaleParts } from '../parts/drop-stale-parts.js';
import { createPartsGuard, followPartsChanges } from '../parts/parts-guard.js';
import { PartsIndex } from '../parts/parts-index.js';
import { createPeopleNames } from '../people/people-names.js';
import { createRenameRunner } from '../people/rename-runner.js';
import { createCollectionGuard } from '../store/collection-guard.js';
import type { MemoryStore } from '../store/memory-store.js';
import {
  CHUNKS_INDEXES,
  PARTS_INDEXES,
  logIndexFailure,
  prepareServiceIndexesAtStart,
  prepareServiceIndexesBeforeWrites,
} from '../store/service-indexes.js';
import { listIndexedCollections } from './indexed-collections.js';
import { assembleCapabilities } from './assemble-capabilities.js';
import { BotCollections, type ServiceEmbedders } from './bot-collections.js';
import { createMemoryOperations, type MemoryOperations } from './operations/memory-operations.js';
import { cacheProbe, runBounded, runProbe } from './readiness-checks.js';
import { routeBots } from './route-bots.js';
import type { ReadinessCheck, ServiceDeps } from './service-deps.js';

export interface AssembleServiceOptions {
  readonly config: MemoryPoolConfig;
  readonly store: MemoryStore;
  /** The journal; the assembled service's close() does not close it (its opener does). */
  readonly journal: Journal;
  /** Embeds chunks (batched). */
  readonly embedder: Embedder;
  /** Embeds queries; defaults to `embedder` (pass a cached one). */
  readonly queryEmbedder?: Embedder;
  /**
   * Builds the embedders of a model a reembed recorded (a collection switched to, or being built, while
   * serve runs); default: createEmbedder for both.
   */
  readonly buildEmbedders?: (embedding: EmbeddingConfig) => ServiceEmbedders;
  readonly logger: Logger;
  /** Deadline of one /retrieve in ms (default 3000, inside the clients' 3.5 s). */
  readonly recallDeadlineMs?: number;
  /** Whether /metrics carries the process's own figures (default true; tests of many services turn it off). */
  readonly processMetrics?: boolean;
}

export interface AssembledService {
  /** What the HTTP app is built over (createServiceApp). */
  readonly deps: ServiceDeps;
  readonly operations: MemoryOperations;
  readonly collections: BotCollections;
  /** The chunk writer, not started: serve starts it, in-process tests flush it with `runOnce`. */
  readonly writer: ChunkWriter;
  /** Stops the writer and waits for the payload indexes asked for at assembly. */
  close(): Promise<void>;
}

/** Wires the service over a store and a journal; throws ConfigError when a recorded model cannot be used. */
export async function assembleService(options: AssembleServiceOptions): Promise<AssembledService> {
  const { config, store, journal, embedder, logger } = options;
  // A bot switched by `memory-pool reembed` writes its new collection from this start on (the check refuses
  // a switch to a collection of another, unrecorded model); reads follow later switches (BotCollections).
  const bots = await routeBots(config.bots, journal, embedder);
  const metrics = createServiceMetrics(() => journal.queueDepth(), {
    processMetrics: options.processMetrics ?? true,
  });
  const chunkEmbedder = meterEmbedder(embedder, metrics, 'chunk');
  const queryEmbedder = meterEmbedder(options.queryEmbedder ?? embedder, metrics, 'query');
  const buildEmbedders =
    options.buildEmbedders ??
    ((embedding: EmbeddingConfig) => {
      const built = createEmbedder(embedding, { logger });
      return { embedder: built, queryEmbedder: built };
    });
  const collections = new BotCollections({
    bots: config.bots,
    journal,
    configured: { embedder: chunkEmbedder, queryEmbedder },
    build: (embedding) => {
      const built = buildEmbedders(embedding);
      return {
        embedder: meterEmbedder(built.embedder, metrics, 'chunk'),
        queryEmbedder: meterEmbedder(built.queryEmbedder, metrics, 'query'),
      };
    },
    logger,
  });
  // A recorded model whose settings cannot be read (a `${VAR}` not set) stops the start, naming it.
  await collections.checkRecordedModels();
  // Background work starts only now: a start refused above never reaches the closer that waits for it.
  // The viewer's timeline, recall's search for SillyTavern's chunks and a linked person's DM recall read payload
  // indexes that are asked for here and before a collection's first write, never by a read; assembly does not wait.
  const indexFailed = logIndexFailure(logger);
  const indexing = listIndexedCollections(journal, bots, indexFailed).then((collections) =>
    prepareServiceIndexesAtStart(store, collections, indexFailed),
  );
  const partsGuard = createPartsGuard(store, journal, {
    afterCreate: prepareServiceIndexesBeforeWrites(store, PARTS_INDEXES, indexFailed),
  });
  const unfollowParts = followPartsChanges(journal, partsGuard);
  const guard = createCollectionGuard(store, journal, {
    prepare: prepareServiceIndexesBeforeWrites(store, CHUNKS_INDEXES, indexFailed),
    // A collection deleted since the last write loses its parts before it is created again.
    beforeCreate: async (collection) => void (await partsGuard.dropIfCollectionGone(collection)),
  });
  // Parts of a collection deleted while serve was stopped, or of chunks gone from a collection another client
  // deleted and created again, hold the deleted memories' text; assembly does not wait for their removal.
  const droppingParts = dropOrphanParts(
    store,
    journal,
    partsGuard,
    [...Object.values(config.bots), ...Object.values(bots)].map((bot) => bot.collection),
  )
    .then(async (dropped) => {
      if (dropped.length > 0)
        logger.info({ collections: dropped }, 'deleted the parts of deleted collections');
      const cleaned = await dropAllStaleParts(
        store,
        journal,
        Object.values(bots).map((bot) => bot.collection),
      );
      if (cleaned.length > 0)
        logger.info({ collections: cleaned }, 'deleted the parts of chunks no longer in their collection');
    })
    .catch((error: unknown) =>
      logger.warn({ err: error }, 'could not look for the parts of deleted collections'),
    );
  const embedderFor = (collection: string) => collections.embedderFor(collection);
  // One cache for the writer, its parts and recall, so all name a person alike (a link is seen within ~1 s).
  const peopleNames = createPeopleNames(journal);
  const parts = new PartsIndex({
    bots,
    journal,
    store,
    embedder: chunkEmbedder,
    embedderFor,
    guard: partsGuard,
    peopleNames,
  });
  const writer = new ChunkWriter({
    bots,
    journal,
    store,
    embedder: chunkEmbedder,
    embedderFor,
    followerOf: (collection) => journal.routes.followerOf(collection),
    peopleNames,
    guard,
    metrics,
    logger,
    parts,
    ...(config.journal?.claimMs === undefined ? {} : { claimMs: config.journal.claimMs }),
  });
  const wakeWriter = () => writer.wake();
  const capabilities = assembleCapabilities({
    store,
    journal,
    collections,
    guard,
    partsGuard,
    parts,
    writer,
    logger,
    peopleNames,
    ...(options.recallDeadlineMs === undefined ? {} : { recallDeadlineMs: options.recallDeadlineMs }),
  });
  // Renames a link change left in the journal (here, by another replica, or before a restart) run from now on.
  const renames = createRenameRunner({ journal, wakeWriter, logger });
  renames.start();
  const operations = createMemoryOperations({
    ...capabilities,
    renames,
    config,
    collections,
    journal,
    store,
    metrics,
    wakeWriter,
  });
  const { readiness } = config;
  // A load balancer's /ready says which journal failed: on Postgres, the shared server (never its password:
  // the journal's errors carry the URL masked).
  const nameJournal = (check: ReadinessCheck): ReadinessCheck =>
    check.ok || config.journal?.postgres === undefined
      ? check
      : { ok: false, error: `journal (Postgres) unreachable or not writable: ${check.error}` };
  const checkEmbedder = cacheProbe(() => embedder.probe(), {
    ttlMs: readiness.embedderCacheMs,
    timeoutMs: readiness.timeoutMs,
  });
  const deps: ServiceDeps = {
    config,
    apiKeys: new LiveApiKeys(config.apiKeys),
    metrics,
    logger,
    operations,
    checkReadiness: async () => {
      const [storeCheck, embedderCheck, journalCheck] = await Promise.all([
        runProbe(() => store.probe(), readiness.timeoutMs),
        checkEmbedder(),
        runProbe(() => journal.checkWritable(), readiness.timeoutMs).then(nameJournal),
      ]);
      return { store: storeCheck, embedder: embedderCheck, journal: journalCheck };
    },
    // Bounded as the checks are: a journal that does not answer fails its own check; this then says nothing.
    readRenaming: async () => (await runBounded(() => journal.renames.progress(), readiness.timeoutMs)) ?? [],
  };
  return {
    deps,
    operations,
    collections,
    writer,
    async close() {
      unfollowParts();
      // A pass running now reads the journal the caller closes next; one still waiting stays in the journal.
      await renames.close();
      await writer.stop();
      await indexing;
      await droppingParts;
    },
  };
}
