/**
 * @module serve follows its config file: two replicas started from one file pick up a revoked key, a narrowed
 * key and a new key from an edit; an invalid edit keeps the keys in use and says why (never the secret);
 * SIGHUP reloads at once. Conditions are waited for, never timed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../config/load-config.js';
import { TEST_DIMENSIONS } from '../config/test-support/test-bot.js';
import { HashingEmbedder } from '../embedding/hashing/hashing-embedder.js';
import { createLogger } from '../logging/logger.js';
import { type MemoryService, startMemoryService } from './start-memory-service.js';
import { startTestQdrant, type TestQdrant } from './test-support/start-test-qdrant.js';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef';
const CAROL = 'carol-key-0123456789abcdef';
const TOO_SHORT = 'dave-short-99';

const dir = mkdtempSync(join(tmpdir(), 'memory-pool-reload-'));
const configPath = join(dir, 'memory-pool.yaml');
// The same file under another name (as a config map mounts it): fs.watchFile polls one path once per process,
// at the first caller's interval, so the SIGHUP-only replica must watch a path of its own.
const linkedPath = join(dir, 'linked.yaml');
const run = Math.random().toString(36).slice(2, 8);

/** The shared file: the store, two bots and `keys` (YAML list entries). */
function writeConfig(storeUrl: string, keys: string): void {
  writeFileSync(
    configPath,
    `store: { qdrant: { url: ${storeUrl} } }
embedding: { provider: hashing, dimensions: ${TEST_DIMENSIONS} }
bots:
  mythos: { selfSpeaker: Mythos, collection: mem_reload_${run} }
  other: { selfSpeaker: Other, collection: mem_reload_other_${run} }
apiKeys:
${keys}`,
  );
}

const key = (name: string, value: string, bots: string) =>
  `  - { name: ${name}, key: ${value}, bots: ${bots} }\n`;

/** Waits for `condition` (a deadline only so a broken reload fails instead of hanging). */
async function waitUntil(what: string, condition: () => Promise<boolean> | boolean): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`never happened: ${what}`);
}

describe('serve follows its config file', () => {
  let qdrant: TestQdrant;
  const lines: string[] = [];
  const replicas: MemoryService[] = [];
  let hangupOnly: MemoryService;
  let saved = 0;

  /** One replica: its own port and journal folder (as per-replica env would give it), the shared file. */
  const startReplica = (name: string, path: string, pollMs: number, logged: boolean) => {
    const load = () => ({
      ...loadConfig({ configPath: path }),
      listen: { host: '127.0.0.1', port: 0 },
      dataDir: join(dir, name),
    });
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
    return startMemoryService({
      config: load(),
      embedder: new HashingEmbedder({ dimensions: TEST_DIMENSIONS }),
      logger: logged
        ? createLogger({ level: 'info', format: 'json', destination: stream })
        : createLogger({ level: 'silent' }),
      configFile: { path, load, pollMs },
    });
  };

  const save = async (service: MemoryService, apiKey: string, bot: string) => {
    saved += 1;
    const response = await fetch(`${service.url}/save`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({
        bot,
        messages: [{ speaker_kind: 'user', text: `hello ${saved}`, message_id: `m-${saved}` }],
      }),
    });
    await response.body?.cancel();
    return response.status;
  };

  before(async () => {
    qdrant = await startTestQdrant();
    writeConfig(qdrant.url, key('alice', ALICE, '[mythos, other]') + key('bob', BOB, "'*'"));
    symlinkSync(configPath, linkedPath);
    replicas.push(
      await startReplica('a', configPath, 100, true),
      await startReplica('b', configPath, 100, false),
    );
    // Polled once an hour: only SIGHUP makes it read the file during the test.
    hangupOnly = await startReplica('c', linkedPath, 3_600_000, false);
  });
  after(async () => {
    for (const service of [...replicas, hangupOnly]) await service.close();
    await qdrant.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('an edit revokes, narrows and adds keys on every replica running the file', async () => {
    for (const replica of replicas) {
      assert.equal(await save(replica, BOB, 'mythos'), 200);
      assert.equal(await save(replica, ALICE, 'other'), 200);
      assert.equal(await save(replica, CAROL, 'mythos'), 401);
    }
    writeConfig(qdrant.url, key('alice', ALICE, '[mythos]') + key('carol', CAROL, '[mythos, other]'));
    for (const replica of replicas) {
      await waitUntil('bob revoked', async () => (await save(replica, BOB, 'mythos')) === 401);
      assert.equal(await save(replica, ALICE, 'other'), 403, 'alice lost the bot other');
      assert.equal(await save(replica, ALICE, 'mythos'), 200);
      assert.equal(await save(replica, CAROL, 'other'), 200, 'carol is new');
    }
    const metrics = await (await fetch(`${replicas[0]!.url}/metrics`)).text();
    assert.match(metrics, /memory_pool_config_reloads_total\{outcome="applied"\} [1-9]/);
    assert.ok(lines.some((line) => line.includes('API keys reloaded')));
  });

  test('an invalid edit keeps the keys in use and logs the problem, never a key', async () => {
    // Dave's key is too short; the edit would also have revoked carol.
    writeConfig(qdrant.url, key('alice', ALICE, '[mythos]') + key('dave', TOO_SHORT, '[mythos]'));
    await waitUntil('the refusal logged', () => lines.some((line) => line.includes('not applied')));
    const refusal = lines.find((line) => line.includes('not applied'))!;
    assert.match(refusal, /apiKeys\[1\]\.key/);
    assert.match(refusal, /at least 16/);
    for (const line of lines) {
      for (const secret of [ALICE, BOB, CAROL, TOO_SHORT]) assert.ok(!line.includes(secret), line);
    }
    // The reload SIGHUP and the poll run says the same when called directly.
    assert.equal(replicas[1]!.reloadConfig?.(), 'refused');
    for (const replica of replicas) {
      assert.equal(await save(replica, CAROL, 'mythos'), 200, 'carol still works');
      assert.equal(await save(replica, TOO_SHORT, 'mythos'), 401);
    }
  });

  test('SIGHUP reloads at once, whatever the poll', async () => {
    assert.equal(await save(hangupOnly, BOB, 'mythos'), 200, 'still the keys it started with');
    writeConfig(qdrant.url, key('alice', ALICE, '[mythos]'));
    process.kill(process.pid, 'SIGHUP');
    await waitUntil('bob revoked on SIGHUP', async () => (await save(hangupOnly, BOB, 'mythos')) === 401);
    assert.equal(await save(hangupOnly, ALICE, 'mythos'), 200);
    assert.equal(await save(hangupOnly, CAROL, 'mythos'), 401);
  });
});
