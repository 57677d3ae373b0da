import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { findFreePort } from '../runtime/find-free-port.js';
import { startServeProcess } from './test-support/start-serve-process.js';

const dir = mkdtempSync(join(tmpdir(), 'memory-pool-crash-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

async function post(url: string, body: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

test('a message acknowledged by /save survives kill -9 before it was chunked, and is stored after restart', async () => {
  const [apiPort, storePort] = [await findFreePort(), await findFreePort()];
  const configPath = join(dir, 'memory-pool.yaml');
  writeFileSync(
    configPath,
    [
      `listen: { host: 127.0.0.1, port: ${apiPort} }`,
      `store: { embedded: { path: ./qdrant, port: ${storePort} } }`,
      'embedding: { provider: hashing, dimensions: 64 }',
      'dataDir: ./service',
      'bots:',
      '  mythos:',
      '    selfSpeaker: Mythos',
      '    chunk: { minChars: 1200, maxChars: 1500, idleMs: 300 }',
      '    retrieve: { limit: 5, scoreThreshold: 0.1 }',
    ].join('\n'),
  );
  const api = `http://127.0.0.1:${apiPort}`;
  let child = await startServeProcess(configPath);
  const saved = await post(`${api}/save`, {
    bot: 'mythos',
    source: 'discord',
    messages: [
      {
        speaker_kind: 'user',
        text: 'The spare key is under the blue flowerpot',
        message_id: 'k1',
        speaker_name: 'Helen',
      },
      { speaker_kind: 'self', text: 'Noted: blue flowerpot, spare key.', message_id: 'k2' },
    ],
  });
  assert.deepEqual(saved.json, { ok: true, accepted: 2, duplicates: 0, edited: 0, forgotten: 0 });
  // Killed before the 300 ms idle flush: the messages exist only in the journal.
  await killHard(child);

  child = await startServeProcess(configPath);
  try {
    let hits: { messageIds: string; text: string }[] = [];
    for (let attempt = 0; attempt < 50 && hits.length === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const recalled = await post(`${api}/retrieve`, { bot: 'mythos', query_text: 'where is the spare key' });
      hits = recalled.json.hits as typeof hits;
    }
    assert.equal(hits.length, 1, 'the chunk was written after the restart');
    assert.equal(hits[0]!.messageIds, 'k1,k2');
    assert.match(hits[0]!.text, /Helen: The spare key is under the blue flowerpot\nMythos: Noted/);
  } finally {
    await killHard(child);
  }
});
