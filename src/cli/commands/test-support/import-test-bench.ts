/**
 * @module For importer tests: a running memory service (hashing embedder; its embedded store, or the Qdrant at
 * QDRANT_URL), a config file pointing at it as a user's would, `memory-pool import` run in-process, and the
 * bot's points read back.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QdrantClient } from '@qdrant/js-client-rest';
import type { BotConfig } from '../../../config/config-types.js';
import { TEST_DIMENSIONS, testBot } from '../../../config/test-support/test-bot.js';
import type { ImportSummary } from '../../../importers/import-history.js';
import { startServiceOnTestStore } from '../../../service/test-support/start-service-on-test-store.js';
import type { TestService } from '../../../service/test-support/start-test-service.js';
import type { CommandOutput } from '../command-io.js';
import { type ImportCommandOptions, runImport } from '../import-command.js';

export interface ImportRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
  readonly summary: ImportSummary | undefined;
}

export interface StoredChunk {
  readonly text: string;
  readonly speakers: string;
  readonly messageIds: string[];
  readonly timestamp: number;
  readonly source: unknown;
  readonly channelId: unknown;
  readonly guildId: unknown;
  readonly isDm: unknown;
}

export interface ImportTestBench {
  readonly service: TestService;
  readonly client: QdrantClient;
  readonly collection: string;
  /** `memory-pool import <kind> <paths> --bot mythos --json …` against the service's config. */
  run(kind: string, paths: readonly string[], options?: Partial<ImportCommandOptions>): Promise<ImportRun>;
  /** Every chunk point of the bot, oldest first. */
  chunks(): Promise<StoredChunk[]>;
  close(): Promise<void>;
}

/** Starts the service with one bot, `mythos` (selfSpeaker Mythos unless `bot` says otherwise). */
export async function startImportTestBench(bot: Partial<BotConfig> = {}): Promise<ImportTestBench> {
  const { service, client, collection } = await startServiceOnTestStore(testBot('mythos', bot));
  const botConfig = service.config.bots.mythos!;
  const configFile = join(service.dir, 'memory-pool.yaml');
  // YAML reads JSON, so the config is written as JSON.
  writeFileSync(
    configFile,
    JSON.stringify({
      dataDir: service.config.dataDir,
      store:
        service.config.store.kind === 'qdrant'
          ? { qdrant: { url: service.config.store.url } }
          : {
              embedded: { path: join(service.dir, 'qdrant'), port: Number(new URL(service.storeUrl!).port) },
            },
      embedding: { provider: 'hashing', dimensions: TEST_DIMENSIONS },
      bots: {
        mythos: {
          selfSpeaker: botConfig.selfSpeaker,
          collection,
          speakerAliases: botConfig.speakerAliases,
          chunk: botConfig.chunk,
        },
      },
    }),
  );
  return {
    service,
    client,
    collection,
    async run(kind, paths, options = {}) {
      let out = '';
      let err = '';
      const io: CommandOutput = {
        out: (text) => {
          out += text;
        },
        err: (text) => {
          err += text;
        },
        isTTY: false,
      };
      const code = await runImport(
        kind,
        paths,
        { bot: 'mythos', config: configFile, json: true, ...options },
        io,
      );
      return { code, out, err, summary: out && options.json !== false ? JSON.parse(out) : undefined };
    },
    async chunks() {
      const exists = await client.collectionExists(botConfig.collection);
      if (!exists.exists) return [];
      const page = await client.scroll(botConfig.collection, { limit: 10_000, with_payload: true });
      return page.points
        .map((p) => {
          const payload = p.payload as Record<string, unknown>;
          return {
            text: payload.text as string,
            speakers: payload.speakers as string,
            messageIds: String(payload.messageIds).split(','),
            timestamp: payload.timestamp as number,
            source: payload.source,
            channelId: payload.channelId,
            guildId: payload.guildId,
            isDm: payload.isDm,
          };
        })
        .sort((a, b) => a.timestamp - b.timestamp);
    },
    close: () => service.close(),
  };
}
