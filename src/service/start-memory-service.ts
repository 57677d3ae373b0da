/**
 * @module The composition root of `memory-pool serve`: start the embedded store (when configured), assemble
 * the service (src/core/assemble-service.ts), listen, connect Discord; stopped in reverse order.
 */
import type { DiscordConfig, MemoryPoolConfig } from '../config/config-types.js';
import { vectorsOnDiskOf } from '../config/vectors-on-disk.js';
import { type AssembleServiceOptions, assembleService } from '../core/assemble-service.js';
import type { MemoryOperations } from '../core/operations/memory-operations.js';
import { perChatPayloads } from '../core/per-chat-payloads.js';
import type { Embedder } from '../embedding/embedder.js';
import { createServiceApp } from '../http/service-app.js';
import type { ChunkWriter } from '../ingest/chunk-writer.js';
import { createInProcessDiscordMemory } from '../interfaces/discord/in-process-memory.js';
import type { DiscordConnection } from '../interfaces/discord/start-discord.js';
import type { Journal } from '../journal/journal.js';
import { moveLegacyDiscordState } from '../journal/move-legacy-discord-state.js';
import { openJournal } from '../journal/open-journal.js';
import type { Logger } from '../logging/logger.js';
import { normaliseStoredPeople } from '../people/normalise-stored-people.js';
import { seedPeople } from '../people/seed-people.js';
import { type StoreThreadOptions, startStoreThread } from '../qdrant-server/thread/start-store-thread.js';
import type { QdrantServer } from '../qdrant-server/http/server.js';
import { listenHttp } from '../runtime/listen-http.js';
import type { MemoryStore } from '../store/memory-store.js';
import { createQdrantPointStore } from '../store/qdrant/qdrant-point-store.js';
import { withStCollectionLayouts } from '../store/st-hybrid/st-layout-point-store.js';
import { CONFIG_POLL_MS, followConfigFile } from './follow-config-file.js';
import { createConfigReloader, type ReloadOutcome, stampFile } from './reload-api-keys.js';

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
    readonly linkCodePollMs?: number;
  };
  /**
   * The file `config` was read from, followed while serve runs: on a change (polled) or SIGHUP, `load` reads
   * and validates it again and its API keys replace the current ones. Absent: the keys never change.
   */
  readonly configFile?: {
    readonly path: string;
    readonly load: () => MemoryPoolConfig;
    /** How often the file is polled (default 1000 ms). */
    readonly pollMs?: number;
  };
  /**
   * Starts the embedded store (default startStoreThread: its own worker thread, so the store's work never
   * holds up this thread's requests); tests pass one whose thread blocks or crashes on cue.
   */
  readonly startStore?: (options: StoreThreadOptions) => Promise<QdrantServer>;
  /**
   * Called once the service has stopped itself because the embedded store's thread died (logged first);
   * `serve` then exits with code 1 for its supervisor to restart it. Nothing acknowledged is lost: the
   * journal holds every message until it is stored.
   */
  readonly onStopped?: (error: Error) => void;
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
  /** With `configFile`: the reload a change of the file or SIGHUP runs, for a caller that knows it changed. */
  readonly reloadConfig?: () => ReloadOutcome;
  close(): Promise<void>;
}

/**
 * Starts the Discord interface for its bot, after the API listens (so what it records is saved at once),
 * behind the bot's gateway lease: connected here only while no other replica holds it.
 */
async function connectDiscord(
  config: MemoryPoolConfig,
  discord: DiscordConfig,
  operations: MemoryOperations,
  journal: Journal,
  options: MemoryServiceOptions,
) {
  // The config check guarantees the bot exists, or that there is exactly one.
  const botName = discord.bot ?? Object.keys(config.bots)[0]!;
  const { startDiscord } = await import('../interfaces/discord/start-discord.js');
  const { DiscordGatewayLease } = await import('../interfaces/discord/discord-gateway-lease.js');
  // An older memory-pool's discord.sqlite in this replica's dataDir is moved into the journal first.
  await moveLegacyDiscordState(config.dataDir, journal, options.logger);
  const lease = new DiscordGatewayLease({
    leases: journal.leases,
    bot: botName,
    logger: options.logger,
    // A stop renews while the companion's last replies finish (each bounded by its timeout), then lets go.
    drainMs: (discord.companion?.timeoutMs ?? 60_000) + 15_000,
    connect: (leaseHeld) =>
      startDiscord({
        config: discord,
        memory: createInProcessDiscordMemory(operations, config.bots[botName]!),
        store: journal.discord,
        logger: options.logger,
        leaseHeld,
        ...options.discord,
      }),
  });
  await lease.start();
  return lease;
}

/** Starts everything; resolves when the API port is bound. */
export async function startMemoryService(options: MemoryServiceOptions): Promise<MemoryService> {
  const { config, logger } = options;
  const closers: (() => Promise<void> | void)[] = [];
  const closeAll = async () => {
    for (const close of [...closers].reverse()) await close();
    closers.length = 0;
  };
  // Stopping rather than starting a new store thread: a crash that repeats (out of memory on a large
  // collection, a damaged file) would loop unseen inside the process, while an exit is what supervisors
  // (systemd, Docker, pm2) watch and restart, with backoff, and is what the operator's alerting sees.
  const stopOnStoreCrash = (error: Error) => {
    logger.error(
      { err: error },
      "the embedded store's thread stopped unexpectedly; memory-pool stops (messages already saved wait in the journal and are stored after a restart)",
    );
    void closeAll().then(
      () => options.onStopped?.(error),
      () => options.onStopped?.(error),
    );
  };
  try {
    // Opened first: the store's per-chat payloads follow the journal's reembed routes. The same journal (SQLite
    // or Postgres) holds the Discord state and the gateway lease.
    const journal = options.journal ?? (await openJournal(config, { serving: true }));
    closers.push(() => journal.close());
    // Accounts stored before the API normalised them are respelled first, so seeding and lookups find them.
    for (const normalised of await normaliseStoredPeople(journal, Object.keys(config.bots), Date.now())) {
      const log = normalised.conflicts.length > 0 ? logger.warn.bind(logger) : logger.info.bind(logger);
      log(
        normalised,
        'people: stored accounts respelled as the API spells them (conflicts left for the owner)',
      );
    }
    // speakerAliases seed the journal's people (docs/people.md); links made since are kept as they are.
    for (const seeded of await seedPeople(journal, config.bots, Date.now())) {
      if (seeded.created + seeded.linked + seeded.skipped.length > 0) {
        logger.info(seeded, 'people seeded from speakerAliases');
      }
    }
    let storeUrl: string | undefined;
    let store = options.store;
    if (store === undefined) {
      // The embedded store in this process takes upserts as posted Float32Arrays, not JSON; a real Qdrant over REST.
      let posted: QdrantServer | undefined;
      if (config.store.kind === 'embedded') {
        const embedded = await (options.startStore ?? startStoreThread)({
          dataDir: config.store.path,
          host: config.store.host,
          port: config.store.port,
          apiKey: config.store.apiKey,
          corsOrigins: config.store.corsOrigins,
          logger,
          onCrash: (error) => stopOnStoreCrash(error),
        });
        closers.push(() => embedded.close());
        storeUrl = embedded.url;
        posted = embedded;
        logger.debug({ url: embedded.url }, 'embedded Qdrant-compatible store listening');
      } else {
        storeUrl = config.store.url;
      }
      // Shared collections are written in their own layout, including st-qdrant-memory's hybrid fork's.
      store = withStCollectionLayouts(
        createQdrantPointStore({
          url: storeUrl,
          ...(config.store.apiKey ? { apiKey: config.store.apiKey } : {}),
          posted,
          vectorsOnDisk: vectorsOnDiskOf(config),
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
    // The body limit, so a client asking `Expect: 100-continue` for a body over it is refused before sending.
    const server = await listenHttp(app.fetch, config.listen.host, config.listen.port, {
      maxBodyBytes: config.limits.maxBodyBytes,
    });
    closers.push(() => server.close());
    const { url } = server;
    // Followed once the API answers, so a reload never races the start.
    let reloadConfig: (() => ReloadOutcome) | undefined;
    const { configFile } = options;
    if (configFile !== undefined) {
      const reload = createConfigReloader({
        apiKeys: service.deps.apiKeys,
        metrics: service.deps.metrics,
        logger,
        load: configFile.load,
        running: config,
        label: configFile.path,
        settle: {
          statFile: () => stampFile(configFile.path),
          settleMs: configFile.pollMs ?? CONFIG_POLL_MS,
        },
      });
      reloadConfig = reload;
      const interval = configFile.pollMs === undefined ? {} : { intervalMs: configFile.pollMs };
      // A file that widens a key is read once more a poll later: applied only if it stood still meanwhile.
      let again: NodeJS.Timeout | undefined;
      const reloadUntilSettled = () => {
        clearTimeout(again);
        if (reload() === 'held') again = setTimeout(reloadUntilSettled, configFile.pollMs ?? CONFIG_POLL_MS);
      };
      const unfollow = followConfigFile(configFile.path, reloadUntilSettled, interval);
      closers.push(() => {
        clearTimeout(again);
        unfollow();
      });
    }
    // At debug: `memory-pool serve` logs its banner (src/cli/commands/startup-banner.ts) with these and more.
    logger.debug({ url, bots: Object.keys(config.bots) }, 'memory-pool listening');
    const gateway =
      config.discord === undefined
        ? undefined
        : await connectDiscord(config, config.discord, service.operations, journal, options);
    if (gateway !== undefined) closers.push(() => gateway.close());
    // The connection at start (none when another replica holds the bot's gateway).
    const discord = gateway?.connection;
    const { writer } = service;
    return {
      app,
      url,
      storeUrl,
      writer,
      ...(discord === undefined ? {} : { discord }),
      ...(reloadConfig === undefined ? {} : { reloadConfig }),
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
