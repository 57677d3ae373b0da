import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { findFreePort } from '../runtime/find-free-port.js';
import { startServeProcess } from './test-support/start-serve-process.js';

const dir = mkdtempSync(join(tmpdir(), 'memory-pool-stop-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const message = (id: string) => ({
  speaker_kind: 'user',
  speaker_name: 'Helen',
  text: `note ${id}`,
  message_id: id,
});

/** Node's keep-alive agent, as SillyTavern's and Hermes's HTTP clients use: one connection per client. */
const agent = new Agent({ keepAlive: true, maxSockets: 4 });
after(() => agent.destroy());

function save(
  api: string,
  ids: readonly string[],
): Promise<{ status: number; json: Record<string, number> }> {
  const body = JSON.stringify({ bot: 'mythos', source: 'discord', messages: ids.map(message) });
  return new Promise((resolve, reject) => {
    const req = request(`${api}/save`, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json' },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Saves one message after another on a keep-alive connection until one fails; the acknowledged ids. */
async function saveBackToBack(api: string, client: number): Promise<string[]> {
  const acknowledged: string[] = [];
  for (let n = 0; ; n++) {
    const id = `c${client}-${n}`;
    try {
      if ((await save(api, [id])).status !== 200) return acknowledged;
    } catch {
      return acknowledged;
    }
    acknowledged.push(id);
  }
}

// Before the stop answered with Connection: close, SIGTERM under this load left the process up until
// the orchestrator's SIGKILL: the writer, store and journal were never closed.
test('SIGTERM under back-to-back keep-alive saves stops the service, every acknowledged save kept', {
  timeout: 120_000,
}, async () => {
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
    ].join('\n'),
  );
  const api = `http://127.0.0.1:${apiPort}`;
  const child = await startServeProcess(configPath);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const clients = Array.from({ length: 4 }, (_, client) => saveBackToBack(api, client));
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  child.kill('SIGTERM');
  // A cap far beyond the 5 s grace period, so the test fails rather than hangs when the stop never ends.
  const giveUp = new Promise<'still up'>((resolve) => setTimeout(resolve, 30_000, 'still up').unref());
  const outcome = await Promise.race([exited, giveUp]);
  if (outcome === 'still up') child.kill('SIGKILL');
  assert.equal(outcome, 0, 'the service stopped on SIGTERM and exited 0');
  const acknowledged = (await Promise.all(clients)).flat();
  assert.ok(acknowledged.length > 0);

  const restarted = await startServeProcess(configPath);
  try {
    // Every acknowledged message is in the journal: saved again, each one is a duplicate.
    let duplicates = 0;
    for (let start = 0; start < acknowledged.length; start += 100) {
      const again = await save(api, acknowledged.slice(start, start + 100));
      assert.equal(again.status, 200, JSON.stringify(again.json));
      duplicates += again.json.duplicates!;
    }
    assert.equal(duplicates, acknowledged.length);
  } finally {
    restarted.kill('SIGKILL');
  }
});
