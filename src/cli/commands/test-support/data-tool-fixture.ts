/**
 * @module A running test service with memories of every kind, and config files for the data commands. It runs on
 * the service's embedded store, or on a real Qdrant when QDRANT_URL is set (start-service-on-test-store.ts):
 * `QDRANT_URL=http://localhost:6333 npm test -- maintenance importers` runs the same tests there.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QdrantClient } from '@qdrant/js-client-rest';
import { TEST_DIMENSIONS, testBot } from '../../../config/test-support/test-bot.js';
import { findFreePort } from '../../../runtime/find-free-port.js';
import { startServiceOnTestStore } from '../../../service/test-support/start-service-on-test-store.js';
import type { TestService } from '../../../service/test-support/start-test-service.js';
import type { CommandOutput } from '../command-io.js';

const DAY = Date.UTC(2026, 10, 2, 9);

/** Output captured from one command run. */
export function captureOutput(): CommandOutput & { readonly text: () => { out: string; err: string } } {
  let out = '';
  let err = '';
  return {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
    isTTY: false,
    text: () => ({ out, err }),
  };
}

/**
 * A config file for the CLI. With `service`, it points at the service's store, bot collection and journal (with
 * `ownJournal`, a fresh journal under `dir` instead); without, at fresh folders under `dir` whose embedded store
 * nothing serves (the command opens it itself).
 */
export async function writeDataToolConfig(
  dir: string,
  name: string,
  options: { service?: TestService; ownJournal?: boolean; dimensions?: number; embedding?: string } = {},
): Promise<string> {
  const { service } = options;
  const file = join(dir, `${name}.yaml`);
  const dataDir = service && !options.ownJournal ? service.config.dataDir : join(dir, name, 'service');
  const collection = service?.config.bots.mythos?.collection ?? 'mem_mythos';
  writeFileSync(
    file,
    [
      `dataDir: ${JSON.stringify(dataDir)}`,
      // The service's own address, so reembed sees it running.
      `listen: { port: ${service ? Number(new URL(service.url).port) : await findFreePort()} }`,
      await storeLine(dir, name, service),
      options.embedding ??
        `embedding: { provider: hashing, dimensions: ${options.dimensions ?? TEST_DIMENSIONS} }`,
      `bots: { mythos: { selfSpeaker: Mythos, collection: ${collection} } }`,
      '',
    ].join('\n'),
  );
  return file;
}

/** The service's store as a user's config names it (a real Qdrant's key comes from QDRANT_API_KEY). */
async function storeLine(dir: string, name: string, service: TestService | undefined): Promise<string> {
  if (service?.config.store.kind === 'qdrant') {
    return `store: { qdrant: { url: ${JSON.stringify(service.config.store.url)} } }`;
  }
  const port = service ? Number(new URL(service.storeUrl!).port) : await findFreePort();
  const path = service ? join(service.dir, 'qdrant') : join(dir, name, 'qdrant');
  return `store: { embedded: { path: ${JSON.stringify(path)}, port: ${port} } }`;
}

/**
 * Starts a service holding memory-pool chunks from two sources, one forgotten message (a tombstone and a
 * rewritten chunk) and a SillyTavern point (no source, written straight to the store).
 */
export async function startServiceWithMemories(): Promise<{
  service: TestService;
  client: QdrantClient;
  /** The bot's collection, named for this run. */
  collection: string;
}> {
  const { service, client, collection } = await startServiceOnTestStore(
    // The alias seeds a person at start (no message here has its id), so the snapshot carries people rows.
    testBot('mythos', { speakerAliases: { 'telegram:42': 'Helen' } }),
  );
  let clock = 0;
  const message = (kind: 'user' | 'self', id: string, text: string) => {
    clock += 60_000;
    return { speaker_kind: kind, text, message_id: id, ts: DAY + clock, speaker_name: 'Helen' };
  };
  const save = async (source: string, messages: unknown[]) =>
    assert.equal((await service.post('/save', { bot: 'mythos', source, messages })).status, 200);
  await save('discord', [
    message('user', 'd1', 'My sister Anna lives in Lisbon and teaches piano to children'),
    message('self', 'd2', 'Does Anna play concerts in Lisbon too, or only teach?'),
    message('user', 'd3', 'Only in summer, at the old cathedral by the river'),
  ]);
  await save('hermes', [
    message('user', 'h1', 'I adopted a grey cat called Pixel from the shelter last week'),
    message('self', 'h2', 'Pixel is a lovely name for a grey cat, how is she settling in?'),
  ]);
  await service.writer.runOnce({ flush: true });
  assert.equal((await service.post('/forget', { bot: 'mythos', message_ids: ['d2'] })).status, 200);
  await service.writer.runOnce({ flush: true });
  await client.upsert(collection, {
    wait: true,
    points: [
      {
        id: '5c56c793-69f3-4fbf-87e6-c4bf54c28c26',
        vector: Array.from({ length: TEST_DIMENSIONS }, (_, i) => (i % 7) / 7 - 0.4),
        payload: { text: 'Helen: we talked about the sea\nMythos: it was calm', messageIds: 'st_1,st_2' },
      },
    ],
  });
  return { service, client, collection };
}
