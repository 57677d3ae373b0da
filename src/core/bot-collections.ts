/**
 * @module The one answer to "bot B now uses collection C with model M". A running service follows
 * `memory-pool reembed` without a restart: each bot's collection is read from the journal's routes when it
 * is used (a switch commits in the reembed's process), and a collection a reembed built with another model
 * is embedded with that model, parsed from the section the journal recorded (its `${VAR}` references read
 * from this process's environment). Nothing else reads a bot's configured `collection` for I/O.
 */
import type { BotConfig, EmbeddingConfig } from '../config/config-types.js';
import { parseEmbeddingSection } from '../config/load-embedding-section.js';
import { describeModel, sameModel } from '../config/same-model.js';
import type { Embedder } from '../embedding/embedder.js';
import { NotFoundError } from '../errors/memory-pool-error.js';
import type { Journal } from '../journal/journal.js';
import type { Logger } from '../logging/logger.js';

/** The two embedders the service keeps per model: one for chunk writes, one (quick, cached) for queries. */
export interface ServiceEmbedders {
  readonly embedder: Embedder;
  readonly queryEmbedder: Embedder;
}

export interface BotCollectionsDeps {
  /** The bots as configured (their `collection` is the name a reembed routes from). */
  readonly bots: Readonly<Record<string, BotConfig>>;
  readonly journal: Journal;
  /** The configured model's embedders. */
  readonly configured: ServiceEmbedders;
  /** Builds the embedders of a recorded `embedding:` section (serve: the providers; tests: the same). */
  readonly build: (embedding: EmbeddingConfig) => ServiceEmbedders;
  readonly logger: Logger;
}

/** Where `bot`'s memories are read and written now (a switch made while serve runs takes effect at once). */
export function liveCollection(journal: Pick<Journal, 'routes'>, bot: BotConfig): Promise<string> {
  return journal.routes.resolve(bot.collection);
}

export class BotCollections {
  /** Embedders by recorded section, built once each. */
  readonly #built = new Map<string, ServiceEmbedders>();

  readonly #deps: BotCollectionsDeps;

  constructor(deps: BotCollectionsDeps) {
    this.#deps = deps;
  }

  /** The configured bots' names, in config order. */
  names(): string[] {
    return Object.keys(this.#deps.bots);
  }

  /** The bot as configured; a 404 naming the configured bots when there is none of that name. */
  configured(name: string): BotConfig {
    const { bots } = this.#deps;
    const bot = Object.hasOwn(bots, name) ? bots[name] : undefined;
    if (bot === undefined) {
      const known = Object.keys(bots).join(', ');
      throw new NotFoundError(
        'unknown_bot',
        `bot: "${name}" is not configured; configured bots: ${known}`,
        'bot',
      );
    }
    return bot;
  }

  /** The bot named `name` as it is used now: its `collection` is the live one (embedderFor gives its model). */
  current(name: string): Promise<BotConfig> {
    return this.route(this.configured(name));
  }

  /** `bot` with the collection it uses now. */
  async route(bot: BotConfig): Promise<BotConfig> {
    const collection = await liveCollection(this.#deps.journal, bot);
    return collection === bot.collection ? bot : { ...bot, collection };
  }

  /** The embedder that writes `collection`'s vectors; throws ConfigError when its section cannot be read. */
  async embedderFor(collection: string): Promise<Embedder> {
    return (await this.#embeddersOf(collection)).embedder;
  }

  /** The embedder for queries on `collection`. */
  async queryEmbedderFor(collection: string): Promise<Embedder> {
    return (await this.#embeddersOf(collection)).queryEmbedder;
  }

  /** Reads every bot's recorded model now, so one whose settings cannot be read (a `${VAR}` unset) stops a start. */
  async checkRecordedModels(): Promise<void> {
    for (const bot of Object.values(this.#deps.bots))
      await this.embedderFor((await this.route(bot)).collection);
  }

  async #embeddersOf(collection: string): Promise<ServiceEmbedders> {
    const { journal, configured } = this.#deps;
    const written = await journal.routes.embeddingOf(collection);
    if (written === undefined) return configured;
    let built = this.#built.get(written);
    if (built === undefined) {
      const embedding = parseEmbeddingSection(written, `the embedding reembed recorded for ${collection}`);
      built = this.#deps.build(embedding);
      this.#built.set(written, built);
      if (!sameModel(built.embedder, configured.embedder)) {
        this.#deps.logger.warn(
          {
            collection,
            model: describeModel(built.embedder),
            configured: describeModel(configured.embedder),
          },
          'this collection was built by memory-pool reembed with another model: serve embeds for it with that model (set embedding: in the config to it)',
        );
      }
    }
    // The config's own embedders when they are that model (the config was updated after the switch).
    return sameModel(built.embedder, configured.embedder) ? configured : built;
  }
}
