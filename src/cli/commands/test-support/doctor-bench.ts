/**
 * @module For doctor tests: a store (the embedded one, or a real Qdrant with QDRANT_URL), config files that
 * point at it, each with its own journal folder and uniquely named collection (deleted at the end), and
 * `memory-pool doctor` run in-process.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { QdrantClient } from '@qdrant/js-client-rest';
import type { Journal } from '../../../journal/journal.js';
import { openSqliteJournal } from '../../../journal/sqlite/sqlite-journal.js';
import { startDataToolStore } from '../../../maintenance/test-support/data-tool-store.js';
import type { TestQdrant } from '../../../service/test-support/start-test-qdrant.js';
import { type DoctorDeps, runDoctor } from '../doctor-command.js';
import { captureOutput } from './data-tool-fixture.js';

export interface DoctorSetup {
  readonly config: string;
  readonly dataDir: string;
  /** The bot's collection (not created); every collection whose name starts with it is deleted at the end. */
  readonly collection: string;
}

export interface DoctorBench {
  readonly client: QdrantClient;
  readonly store: TestQdrant;
  /** A config with bot `mythos`; `embedding` and `extra` are YAML lines (default: the 64-d hashing embedder). */
  setup(options?: {
    embedding?: string;
    /** The `store:` line (default: the bench's store). */
    store?: string;
    extra?: readonly string[];
    dataDir?: string;
    /** Another config of the same bot: its journal and collection. */
    of?: DoctorSetup;
  }): DoctorSetup;
  /** The setup's journal, closed after `use`. */
  withJournal<T>(setup: DoctorSetup, use: (journal: Journal) => Promise<T>): Promise<T>;
  doctor(config: string, deps?: DoctorDeps): Promise<{ code: number; out: string; err: string }>;
  close(): Promise<void>;
}

export async function startDoctorBench(): Promise<DoctorBench> {
  const tools = await startDataToolStore();
  const { qdrant: store, client } = tools;
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-doctor-'));
  let configs = 0;
  return {
    client,
    store,
    setup(options = {}) {
      const collection = options.of?.collection ?? tools.uniqueCollection('doctor');
      configs += 1;
      const dataDir = options.dataDir ?? options.of?.dataDir ?? join(dir, collection);
      const config = join(dir, `config-${configs}.yaml`);
      writeFileSync(
        config,
        [
          `dataDir: ${JSON.stringify(dataDir)}`,
          options.store ?? `store: { qdrant: { url: ${JSON.stringify(store.url)} } }`,
          options.embedding ?? 'embedding: { provider: hashing, dimensions: 64 }',
          `bots: { mythos: { selfSpeaker: Mythos, collection: ${collection} } }`,
          ...(options.extra ?? []),
          '',
        ].join('\n'),
      );
      return { config, dataDir, collection };
    },
    async withJournal(setup, use) {
      const journal = openSqliteJournal(setup.dataDir);
      try {
        return await use(journal);
      } finally {
        await journal.close();
      }
    },
    async doctor(config, deps = {}) {
      const io = captureOutput();
      const code = await runDoctor({ config }, io, deps);
      return { code, ...io.text() };
    },
    async close() {
      await tools.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
