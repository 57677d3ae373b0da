/**
 * @module The composition root of `memory-pool serve`: start the embedded store (when configured), assemble
 * the service (src/core/assemble-service.ts), listen, connect Discord; stopped in reverse order.
 */
import type { DiscordConfig, MemoryPoolConfig } from '../config/config-types.js';
import { type AssembleServiceOptions, assembleService } from '../core/assemble-service.js';
import { perChatPayloads } from '../core/per-chat-payloads.js';
import type { MemoryOperations } from '../core/operations/memory-operations.js';
import type { Embedder } from '../embedding/embedder.js';
import { createServiceApp } from '../http/service-app.js';
import type { ChunkWriter } from '../ingest/chunk-writer.js';
import { createInProcessDiscordMemory } from '../interfaces/discord/in-process-memory.js';
import type { DiscordConnection } from '../interfaces/discord/start-discord.js';
import type { Journal } from '../journal/journal.js';
import { openJournal } from '../journal/open-journal.js';
import type { Logger } from '../logging/logger.js';
import { startQdrantServer } from '../qdrant-server/http/server.js';
import { listenHttp } from '../runtime/listen-http.js';
import type { MemoryStore } from '../store/memory-store.js';
import { createQdrantPointStore } from '../store/qdrant/qdrant-point-store.js';
import { withStCollectionLayouts } from '../store/st-hybrid/st-layout-point-store.js';

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
  readonly buildEmbedders?: AssembleServiceOptions['buildEmbedders'];
  readonly logger: Logger;
  /** Replace the store client (tests). */
  readonly store?: MemoryStore;
  /** Replace the journal (tests, e.g. one whose writes fail); the service closes it. */
  readonly journal?: Journal;
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
  operations: MemoryOperations,
  options: MemoryServiceOptions,
): Promise<DiscordConnection> {
  // The config check guarantees the bot exists, or that there is exactly one.
  const botName = discord.bot ?? Object.keys(config.bots)[0]!;
  const { startDiscord } = await import('../interfaces/discord/start-discord.js');
  return startDiscord({
    config: discord,
    memory: createInProcessDiscordMemory(operations, config.bots[botName]!),
    dataDir: config.dataDir,
    logger: options.logger,
    ...options.discord,
  });
}

/** Starts everything; resolves when the API port is bound. */
export async function startMemoryService(options: MemoryServiceOptions): Promise<MemoryService> {
  const { config, logger } = options;
  const closers: (() => Promise<void> | void)[] = [];
  const closeAll = async () => {
    for (const close of [...closers].reverse()) await close();
    closers.length = 0;
  };
  try {
    // Opened first: the store's per-chat payloads follow the journal's reembed routes.
    const journal = options.journal ?? (await openJournal(config, { serving: true }));
    closers.push(() => journal.close());
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
        { payloadFor: perChatPayloads(config.bots, journal) },
      );
    }
    const service = await assembleService({
      config,
      store,
      journal,
      embedder: options.embedder,
      logger,
      ...(options.queryEmbedder === undefined ? {} : { queryEmbedder: options.queryEmbedder }),
      ...(options.buildEmbedders === undefined ? {} : { buildEmbedders: options.buildEmbedders }),
      ...(options.recallDeadlineMs === undefined ? {} : { recallDeadlineMs: options.recallDeadlineMs }),
    });
    closers.push(() => service.close());
    service.writer.start();

    const app = createServiceApp(service.deps);
    const server = await listenHttp(app.fetch, config.listen.host, config.listen.port);
    closers.push(() => server.close());
    const { url } = server;
    logger.info({ url, bots: Object.keys(config.bots) }, 'memory-pool listening');
    const discord =
      config.discord === undefined
        ? undefined
        : await connectDiscord(config, config.discord, service.operations, options);
    if (discord !== undefined) closers.push(() => discord.close());
    const { writer } = service;
    return { app, url, storeUrl, writer, ...(discord === undefined ? {} : { discord }), close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
