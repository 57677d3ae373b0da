import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../config/load-config.js';
import { describeStartup } from './startup-banner.js';

function configFrom(yaml: string, env: NodeJS.ProcessEnv = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'memory-pool-banner-'));
  writeFileSync(join(cwd, 'memory-pool.yaml'), yaml);
  return loadConfig({ cwd, env });
}

test('the banner names the API, the viewer, the store, the journal, the embedder and its runtime, and the bots', () => {
  const config = configFrom('bots: { mythos: { selfSpeaker: Mythos } }');
  const banner = describeStartup(
    config,
    { url: 'http://127.0.0.1:3102', storeUrl: 'http://127.0.0.1:6333' },
    { runtime: 'onnxruntime' },
  );
  assert.deepEqual(banner, {
    api: 'http://127.0.0.1:3102',
    viewer: 'http://127.0.0.1:3102/ui',
    store: 'embedded at http://127.0.0.1:6333',
    journal: `SQLite at ${join(config.dataDir, 'journal.sqlite')}`,
    embedder: 'offline (USE-lite, 512-d) on onnxruntime',
    bots: 'mythos (collection mem_mythos)',
  });
  assert.ok(Object.keys(banner).length <= 7, 'a few lines, not the whole configuration');
});

test('the banner masks passwords and keys but shows a user name, and names a remote embedder by model', () => {
  const config = configFrom(
    `
store: { qdrant: { url: "https://qdrant.example:6333", apiKey: qdrant-secret } }
embedding: { provider: openai, apiKey: sk-embedding-secret }
journal: { postgres: { url: "postgres://memory:pg-secret@db.example/memory" } }
bots: { mythos: { selfSpeaker: Mythos } }
`,
  );
  const banner = describeStartup(config, { url: 'http://127.0.0.1:3102', storeUrl: undefined }, {});
  const text = JSON.stringify(banner);
  for (const secret of ['qdrant-secret', 'sk-embedding-secret', 'pg-secret'])
    assert.ok(!text.includes(secret), secret);
  assert.equal(banner.store, 'Qdrant at https://qdrant.example:6333');
  assert.equal(banner.journal, 'Postgres at postgres://memory:[set]@db.example/memory');
  assert.match(banner.embedder, /^text-embedding-3-large at https:\/\/api\.openai\.com\/v1$/);
});
