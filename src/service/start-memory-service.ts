/**
 * @module The composition root of `memory-pool serve`: the embedded store (when configured), the store
 * client, journal, chunk writer and HTTP app, started in order and stopped in reverse.
 */
import type { DiscordConfig, EmbeddingConfig, MemoryPoolConfig } from '../config/config-types.js';
import type { ServiceDeps } from '../http/service-deps.js';
import { createInProcessDiscordMemory } from '../interfaces/discord/in-process-memory.js';
import type { DiscordConnection } from '../interfaces/discord/start-discord.js';
import type { Embedder } from '../embedding/embedder.js';
import { createEmbedder } from '../embedding/create-embedder.js';
import { LiveCollections, type ServiceEmbedders } from './live-collections.js';
import { listenHttp } from '../runtime/listen-http.js';
import { createServiceApp } from '../http/service-app.js';
import { ChunkWriter } from '../ingest/chunk-writer.js';
import { createCollectionGuard } from '../store/collection-guard.js';
import { type MessageJournal, openMessageJournal } from '../journal/message-journal.js';
import type { Logger } from '../logging/logger.js';
import { meterEmbedder } from '../metrics/metered-embedder.js';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import { forgetMemories } from '../forgetting/forget-memories.js';
import { retrieveMemories } from '../retrieval/retrieve-memories.js';
import { startQdrantServer } from '../qdrant-server/http/server.js';
import type { HybridPointStore } from '../store/hybrid-point-store.js';
import type { PointStore } from '../store/point-store.js';
import type { TimelineStore } from '../store/timeline-store.js';
import { createViewerBackend } from '../viewer/viewer-backend.js';
import { dropOrphanParts } from '../parts/drop-orphan-parts.js';
import { dropAllStaleParts, dropStalePartsOf } from '../parts/drop-stale-parts.js';
import { createPartsGuard } from '../parts/parts-guard.js';
import { PartsIndex } from '../parts/parts-index.js';
import { createQdrantPointStore } from '../store/qdrant/qdrant-point-store.js';
import { routeBots } from '../maintenance/route-bots.js';
import { withStCollectionLayouts } from '../store/st-hybrid/st-layout-point-store.js';
import { prepareTimelineIndex, prepareTimelineIndexes } from '../store/timeline-index.js';
import { cacheProbe, runProbe } from './readiness-checks.js';

export interface MemoryServiceOptions {
  readonly config: MemoryPoolConfig;
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
  /** Replace the store client (tests). */
  readonly store?: PointStore & HybridPointStore & TimelineStore;
  /** Replace the journal (tests, e.g. one whose writes fail); the service closes it. */
  readonly journal?: MessageJournal;
  /** Deadline of one /retrieve in ms (default 3000, inside the clients' 3.5 s). */
  readonly recallDeadlineMs?: number;
  /** Where the Discord connection (when `discord:` is configured) reaches Discord: a local stand-in in tests. */
  readonly discord?: {
    readonly restApi?: string;
    readonly proxyGraceMs?: number;
    readonly backfillPageDelayMs?: number;
  };
}

export interface MemoryService {
  /** The HTTP app itself, for in-process requests (`app.request('/save', …)`) that skip the socket. */
  readonly app: { request: (input: string, init?: RequestInit) => Response | Promise<Response> };
  /** Where the HTTP API listens, e.g. http://127.0.0.1:3102. */
  readonly url: string;
  /** The Qdrant REST URL the service writes to (the embedded store's, when embedded). */
  readonly storeUrl: string | undefined;
  readonly writer: ChunkWriter;
  /** The Discord connection, when `discord:` is configured. */
  readonly discord?: DiscordConnection;
  close(): Promise<void>;
}

/** Starts the Discord interface for its bot, after the API listens (so what it records is saved at once). */
async function connectDiscord(
  config: MemoryPoolConfig,
  discord: DiscordConfig,
  deps: ServiceDeps,
  options: MemoryServiceOptions,
): Promise<DiscordConnection> {
  // The config check guarantees the bot exists, or that there is exactly one.
  const bot = config.bots[discord.bot ?? Object.keys(config.bots)[0]!]!;
  const { startDiscord } = await import('../interfaces/discord/start-discord.js');
  return startDiscord({
    config: discord,
    memory: createInProcessDiscordMemory(deps, bot),
    dataDir: config.dataDir,
    logger: options.logger,
    ...options.discord,
  });
}

/** Starts everything; resolves when the API port is bound. */
export async function startMemoryService(options: MemoryServiceOptions): Promise<MemoryService> {
  const { config, logger, embedder } = options;
  const closers: (() => Promise<void> | void)[] = [];
  const closeAll = async () => {
    for (const close of [...closers].reverse()) await close();
    closers.length = 0;
  };
  try {
    let storeUrl: string | undefined;
    let store = options.store;
    if (store === undefined) {
      if (config.store.kind === 'embedded') {
        const embedded = await startQdrantServer({
          dataDir: config.store.path,
          host: config.store.host,
          port: config.store.port,
          apiKey: config.store.apiKey,
          corsOrigins: config.store.corsOrigins,
          logger,
        });
        closers.push(() => embedded.close());
        storeUrl = embedded.url;
        logger.info({ url: embedded.url }, 'embedded Qdrant-compatible store listening');
      } else {
        storeUrl = config.store.url;
      }
      // Shared collections are written in their own layout, including st-qdrant-memory's hybrid fork's.
      store = withStCollectionLayouts(
        createQdrantPointStore({
          url: storeUrl,
          ...(config.store.apiKey ? { apiKey: config.store.apiKey } : {}),
        }),
        { payloadByCollection: perChatPayloads(config.bots) },
      );
    }
    const journal = options.journal ?? openMessageJournal(config.dataDir);
    closers.push(() => journal.close());
    // A bot switched by `memory-pool reembed` uses its new collection from this start on, and one switched
    // while serve runs from that moment (live.bot); its collection is embedded with the model it was built with.
    const bots = routeBots(config.bots, journal, embedder);
    const metrics = createServiceMetrics(() => journal.queueDepth());
    const indexStore = store;
    const indexFailed = (collection: string, error: unknown) =>
      logger.warn({ collection, err: error }, 'could not ask the store for the timeline index on timestamp');
    // The viewer's timeline orders by an index that is asked for here and before a collection's first write,
    // never by a read; start-up does not wait for it.
    const indexing = prepareTimelineIndexes(
      indexStore,
      Object.values(bots).map((bot) => bot.collection),
      indexFailed,
    );
    closers.push(() => indexing);
    const partsGuard = createPartsGuard(store, journal);
    const guard = createCollectionGuard(store, journal, {
      prepare: (collection, shape) =>
        prepareTimelineIndex(indexStore, collection, shape).catch((error: unknown) =>
          indexFailed(collection, error),
        ),
      beforeCreate: async (collection) => void (await partsGuard.dropIfCollectionGone(collection)),
    });
    // Parts of a collection deleted while serve was stopped hold the deleted memories' text; start-up does not wait.
    const droppingParts = dropOrphanParts(
      store,
      journal,
      partsGuard,
      [...Object.values(config.bots), ...Object.values(bots)].map((bot) => bot.collection),
    )
      .then(async (dropped) => {
        if (dropped.length > 0)
          logger.info({ collections: dropped }, 'deleted the parts of deleted collections');
        // A collection deleted and created again by another client keeps its name, not its chunks.
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
    closers.push(() => droppingParts);
    const chunkEmbedder = meterEmbedder(embedder, metrics, 'chunk');
    const queryEmbedder = meterEmbedder(options.queryEmbedder ?? embedder, metrics, 'query');
    const buildEmbedders =
      options.buildEmbedders ??
      ((embedding: EmbeddingConfig) => {
        const built = createEmbedder(embedding, { logger });
        return { embedder: built, queryEmbedder: built };
      });
    const live = new LiveCollections({
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
    for (const bot of Object.values(bots)) live.embedderFor(bot.collection);
    const embedderFor = (collection: string) => live.embedderFor(collection);
    const parts = new PartsIndex({
      bots,
      journal,
      store,
      embedder: chunkEmbedder,
      embedderFor,
      guard: partsGuard,
    });
    const writer = new ChunkWriter({
      bots,
      journal,
      store,
      embedder: chunkEmbedder,
      embedderFor,
      followerOf: (collection) => journal.routes.followerOf(collection),
      guard,
      metrics,
      logger,
      parts,
    });
    writer.start();
    closers.push(() => writer.stop());

    const pointStore = store;
    const { readiness } = config;
    const checkEmbedder = cacheProbe(() => embedder.probe(), {
      ttlMs: readiness.embedderCacheMs,
      timeoutMs: readiness.timeoutMs,
    });
    const deps: ServiceDeps = {
      config: { ...config, bots },
      journal,
      metrics,
      logger,
      store: pointStore,
      wakeWriter: () => writer.wake(),
      retrieve: (configuredBot, request, signal) => {
        const bot = live.bot(configuredBot);
        return retrieveMemories(
          {
            store: pointStore,
            embedder: live.queryEmbedderFor(bot.collection),
            guard,
            partsGuard,
            logger,
            onChunksMissing: (collection, chunkIds) =>
              void dropStalePartsOf(store, journal, collection, chunkIds).catch((error: unknown) =>
                logger.warn(
                  { collection, err: error },
                  'could not delete the parts of chunks no longer stored',
                ),
              ),
            forgottenIds: (botName, ids) => journal.forgetting.forgottenAmong(botName, ids),
            chunkMessages: (chunkId) => journal.chunks.chunkMessages(chunkId),
            ...(options.recallDeadlineMs === undefined ? {} : { deadlineMs: options.recallDeadlineMs }),
          },
          bot,
          request,
          signal,
        );
      },
      forget: (bot, request, permissions) =>
        forgetMemories(
          {
            journal,
            store: pointStore,
            parts,
            runExclusive: (task) => writer.runExclusive(task),
            wakeWriter: () => writer.wake(),
          },
          live.bot(bot),
          request,
          permissions,
        ),
      viewer: createViewerBackend({ store: pointStore, journal, embedder: chunkEmbedder, guard }),
      checkReadiness: async () => {
        const [storeCheck, embedderCheck, journalCheck] = await Promise.all([
          runProbe(() => pointStore.probe(), readiness.timeoutMs),
          checkEmbedder(),
          runProbe(() => journal.checkWritable(), readiness.timeoutMs),
        ]);
        return { store: storeCheck, embedder: embedderCheck, journal: journalCheck };
      },
    };
    const app = createServiceApp(deps);
    const server = await listenHttp(app.fetch, config.listen.host, config.listen.port);
    closers.push(() => server.close());
    const { url } = server;
    logger.info({ url, bots: Object.keys(config.bots) }, 'memory-pool listening');
    const discord =
      config.discord === undefined ? undefined : await connectDiscord(config, config.discord, deps, options);
    if (discord !== undefined) closers.push(() => discord.close());
    return { app, url, storeUrl, writer, ...(discord === undefined ? {} : { discord }), close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/** `chatId` for the collections of bots mapped to a chat of Shadota's per-chat fork (`bots.<name>.stChatId`). */
function perChatPayloads(bots: MemoryPoolConfig['bots']): Map<string, Record<string, unknown>> {
  return new Map(
    Object.values(bots).flatMap((bot) =>
      bot.stChatId === undefined ? [] : [[bot.collection, { chatId: bot.stChatId }] as const],
    ),
  );
}
