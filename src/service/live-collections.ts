/**
 * @module How a running service follows `memory-pool reembed` without a restart: each bot's collection is
 * read from the journal's routes when it is used (a switch commits in the reembed's process), and a
 * collection a reembed built with another model is embedded with that model, parsed from the section the
 * journal recorded (its `${VAR}` references read from this process's environment).
 */
import type { BotConfig, EmbeddingConfig } from '../config/config-types.js';
import { parseEmbeddingSection } from '../config/load-embedding-section.js';
import type { Embedder } from '../embedding/embedder.js';
import type { MessageJournal } from '../journal/message-journal.js';
import type { Logger } from '../logging/logger.js';
import { describeModel, sameModel } from '../maintenance/route-bots.js';

/** The two embedders the service keeps per model: one for chunk writes, one (quick, cached) for queries. */
export interface ServiceEmbedders {
  readonly embedder: Embedder;
  readonly queryEmbedder: Embedder;
}

export interface LiveCollectionsDeps {
  readonly journal: MessageJournal;
  /** The configured model's embedders. */
  readonly configured: ServiceEmbedders;
  /** Builds the embedders of a recorded `embedding:` section (serve: the providers; tests: the same). */
  readonly build: (embedding: EmbeddingConfig) => ServiceEmbedders;
  readonly logger: Logger;
}

export class LiveCollections {
  /** Embedders by recorded section, built once each. */
  readonly #built = new Map<string, ServiceEmbedders>();

  readonly #deps: LiveCollectionsDeps;

  constructor(deps: LiveCollectionsDeps) {
    this.#deps = deps;
  }

  /** `bot` with the collection it uses now (a switch made while serve runs takes effect at once). */
  bot(bot: BotConfig): BotConfig {
    const collection = this.#deps.journal.routes.resolve(bot.collection);
    return collection === bot.collection ? bot : { ...bot, collection };
  }

  /** The embedder that writes `collection`'s vectors; throws ConfigError when its section cannot be read. */
  embedderFor(collection: string): Embedder {
    return this.#embeddersOf(collection).embedder;
  }

  /** The embedder for queries on `collection`. */
  queryEmbedderFor(collection: string): Embedder {
    return this.#embeddersOf(collection).queryEmbedder;
  }

  #embeddersOf(collection: string): ServiceEmbedders {
    const { journal, configured } = this.#deps;
    const written = journal.routes.embeddingOf(collection);
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
