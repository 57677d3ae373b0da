/**
 * @module A config file written in place in several writes (as `cat > file` does) is polled between them:
 * a read that gives an existing key defaults wider than its finished lines (a save-only key whose `scopes:`
 * line is not written yet may retrieve) must never be applied on one read.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { loadConfig } from '../config/load-config.js';
import { TEST_DIMENSIONS } from '../config/test-support/test-bot.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { createLogger } from '../logging/logger.js';
import { findFreePort } from '../runtime/find-free-port.js';
import { startMemoryService } from './start-memory-service.js';

const SAVER = 'saver-key-0123456789abcdef';
const ADMIN = 'admin-key-0123456789abcdef';
const dir = mkdtempSync(join(tmpdir(), 'memory-pool-torn-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const configPath = join(dir, 'memory-pool.yaml');
/** Long, so that only the test's own calls read the file. */
const POLL_MS = 600_000;

/** The file up to the saver's key, whose `scopes:` and `sources:` lines come in the next write. */
const HEAD = `store: { embedded: { path: ${join(dir, 'qdrant')}, port: ${await findFreePort()} } }
embedding: { provider: hashing, dimensions: ${TEST_DIMENSIONS} }
bots:
  mythos: { selfSpeaker: Mythos }
apiKeys:
  - name: admin
    key: ${ADMIN}
    bots: '*'
    scopes: [save, retrieve, forget, admin]
  - name: saver
    key: ${SAVER}
    bots: [mythos]
`;
const TAIL = `    scopes: [save]
    sources: [hermes]
`;

test("a key whose lines are half written never gains the defaults' scopes, on any read", {
  timeout: 60_000,
}, async () => {
  writeFileSync(configPath, HEAD + TAIL);
  const load = () => ({
    ...loadConfig({ configPath }),
    listen: { host: '127.0.0.1', port: 0 },
    dataDir: join(dir, 'service'),
  });
  const service = await startMemoryService({
    config: load(),
    embedder: new HashingEmbedder({ dimensions: TEST_DIMENSIONS }),
    logger: createLogger({ level: 'silent' }),
    configFile: { path: configPath, load, pollMs: POLL_MS },
  });
  const retrieveStatus = async () =>
    (
      await fetch(`${service.url}/retrieve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${SAVER}` },
        body: JSON.stringify({ bot: 'mythos', query_text: 'anything' }),
      })
    ).status;
  try {
    assert.equal(await retrieveStatus(), 403);
    // Rewritten in place in two writes, each read by a poll (called here, so the reads land mid-write).
    for (let round = 0; round < 3; round++) {
      writeFileSync(configPath, HEAD);
      service.reloadConfig!();
      assert.equal(
        await retrieveStatus(),
        403,
        'the save-only key retrieved after a read of the half-written file',
      );
      appendFileSync(configPath, TAIL);
      service.reloadConfig!();
      assert.equal(await retrieveStatus(), 403);
    }
    // A second read ms later (an operator's SIGHUP while the writer is still mid-write) applies nothing: the
    // widening waits until the file has stood still for a poll (reload-api-keys.test.ts pins that part).
    writeFileSync(configPath, HEAD);
    assert.equal(service.reloadConfig!(), 'held');
    process.emit('SIGHUP');
    assert.equal(service.reloadConfig!(), 'held');
    assert.equal(await retrieveStatus(), 403, 'a torn read was applied on a second read, ms later');
    appendFileSync(configPath, TAIL);
  } finally {
    await service.close();
  }
});
