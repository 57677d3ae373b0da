/**
 * @module The embedded store's answers sent before the body is read (401, 403, 404) reach a keep-alive client
 * uploading slowly whole: no reset, every answer on one connection.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type QdrantServer, startQdrantServer } from './server.js';

/** Longer than @hono/node-server waits for an unread body to drain before it closes the connection (500 ms). */
const UPLOAD_PAUSE_MS = 700;
const REQUESTS_PER_KIND = 3;
const KEY = 'store-key-1234567890';

/** One POST whose body's second half follows after a pause, whether or not an answer came meanwhile. */
function slowPost(server: QdrantServer, agent: Agent, path: string, headers: Record<string, string>) {
  const url = new URL(server.url);
  const body = JSON.stringify({ query: [1, 0], limit: 1, pad: 'x'.repeat(2000) });
  return new Promise<{ status?: number; error?: string; socket?: unknown }>((resolve) => {
    const outcome: { status?: number; error?: string; socket?: unknown } = {};
    const req = request(
      { host: url.hostname, port: url.port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        outcome.status = res.statusCode;
        res.resume();
      },
    );
    req.on('socket', (socket) => {
      outcome.socket = socket;
    });
    req.on('error', (e: NodeJS.ErrnoException) => {
      outcome.error ??= e.code ?? e.message;
    });
    req.on('close', () => resolve(outcome));
    req.setHeader('content-length', String(body.length));
    req.write(body.slice(0, body.length / 2));
    setTimeout(() => req.end(body.slice(body.length / 2)), UPLOAD_PAUSE_MS);
  });
}

describe('the embedded store, answering before the body is read to a keep-alive client', () => {
  let dataDirs: string[];
  let keyed: QdrantServer;
  let keyless: QdrantServer;
  before(async () => {
    dataDirs = [mkdtempSync(join(tmpdir(), 'mp-store-keepalive-')), mkdtempSync(join(tmpdir(), 'mp-store-keepalive-'))];
    keyed = await startQdrantServer({ dataDir: dataDirs[0]!, port: 0, apiKey: KEY });
    keyless = await startQdrantServer({ dataDir: dataDirs[1]!, port: 0 });
  });
  after(async () => {
    await keyed.close();
    await keyless.close();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  test('401, 403 and 404 arrive with no reset, all on one connection', async () => {
    const kinds: { status: number; server: () => QdrantServer; path: string; headers: Record<string, string> }[] = [
      { status: 401, server: () => keyed, path: '/collections/c/points/query', headers: {} },
      { status: 403, server: () => keyless, path: '/collections/c/points/query', headers: { origin: 'https://elsewhere.example' } },
      { status: 404, server: () => keyed, path: '/no-such-route', headers: { 'api-key': KEY } },
    ];
    await Promise.all(
      kinds.map(async (kind) => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        const sockets = new Set<unknown>();
        for (let i = 0; i < REQUESTS_PER_KIND; i++) {
          const outcome = await slowPost(kind.server(), agent, kind.path, kind.headers);
          sockets.add(outcome.socket);
          assert.equal(outcome.error, undefined, `${kind.status}: the agent saw ${outcome.error}`);
          assert.equal(outcome.status, kind.status);
        }
        agent.destroy();
        assert.equal(sockets.size, 1, `${kind.status}: connections used`);
      }),
    );
  });
});
