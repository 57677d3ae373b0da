import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { describeConfig } from './describe-config.js';
import { loadConfig } from './load-config.js';

const YAML = `
store: { qdrant: { url: "https://admin:pw-secret@qdrant.example:6333", apiKey: qdrant-secret } }
embedding: { provider: openai, apiKey: sk-embedding-secret }
apiKeys: [{ name: discord, key: client-secret-0123456789, bots: "*" }]
`;

test('describeConfig shows every setting but replaces each secret with [set]', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'memory-pool-describe-'));
  writeFileSync(join(cwd, 'memory-pool.yaml'), YAML);
  const summary = describeConfig(loadConfig({ cwd, env: {} }));
  const text = JSON.stringify(summary);
  for (const secret of ['pw-secret', 'qdrant-secret', 'sk-embedding-secret', 'client-secret-0123456789']) {
    assert.ok(!text.includes(secret), `${secret} leaked`);
  }
  assert.deepEqual(summary.store, {
    kind: 'qdrant',
    url: 'https://admin:[set]@qdrant.example:6333', // a user name is no secret; its password is
    apiKey: '[set]',
  });
  assert.deepEqual(summary.apiKeys, [
    { name: 'discord', key: '[set]', bots: '*', sources: '*', scopes: ['save', 'retrieve'] },
  ]);
  assert.equal((summary.embedding as { apiKey: string }).apiKey, '[set]');
  assert.deepEqual(JSON.parse(text), summary);
});

test('describeConfig shows an unset secret as null, so doctor can say it is missing', () => {
  const summary = describeConfig(
    loadConfig({ cwd: mkdtempSync(join(tmpdir(), 'memory-pool-describe-')), env: {} }),
  );
  assert.equal((summary.store as { apiKey: unknown }).apiKey, null);
  assert.equal((summary.bots as Record<string, { collection: string }>).default?.collection, 'mem_assistant');
});
