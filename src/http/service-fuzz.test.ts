/**
 * @module The standing fuzz test of every service route: a few thousand seeded hostile requests, in-process,
 * then a save → retrieve round trip. Replay a failure with the seed and index it prints;
 * MEMORY_POOL_FUZZ_SEED and MEMORY_POOL_FUZZ_RUNS explore further.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ERROR_CODES } from '../errors/memory-pool-error.js';
import { readEnv } from '../runtime/read-env.js';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';
import { testBot } from '../config/test-support/test-bot.js';
import { exchangeRaw } from './test-support/raw-http-exchange.js';
import { createRequestGenerator, type FuzzRequest } from './test-support/random-requests.js';

const SEED = Number(readEnv(process.env, 'MEMORY_POOL_FUZZ_SEED') ?? 0x5eed);
const RUNS = Number(readEnv(process.env, 'MEMORY_POOL_FUZZ_RUNS') ?? 1500);
const KNOWN_CODES = new Set<string>(ERROR_CODES);
/** Requests sent as raw bytes over a real socket, where framing and hang-ups are the point. */
const SOCKET_RUNS = 120;

/** What is wrong with one answer, or undefined when it keeps the API's promises. */
function checkAnswer(request: FuzzRequest, status: number, text: string): string | undefined {
  if (status >= 500) return `status ${status}`;
  if (status < 400 || request.method === 'HEAD') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `a ${status} whose body is not JSON`;
  }
  const { error } = (body ?? {}) as { error?: unknown };
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (request.path === '/mcp' && isObject(body) && body.jsonrpc === '2.0') {
    // The MCP route answers JSON-RPC errors: { jsonrpc, error: { code: number, message }, id }.
    if (!isObject(error) || typeof error.code !== 'number' || typeof error.message !== 'string')
      return 'a JSON-RPC answer without an error { code, message }';
    return undefined;
  }
  if (!isObject(body) || Object.keys(body).join() !== 'error' || !isObject(error))
    return 'not the error envelope { error: { code, message, field? } }';
  const extra = Object.keys(error).filter((key) => !['code', 'message', 'field'].includes(key));
  if (extra.length > 0) return `unexpected keys in the error: ${extra.join(', ')}`;
  if (typeof error.code !== 'string' || !KNOWN_CODES.has(error.code))
    return `undocumented code ${String(error.code)}`;
  if (typeof error.message !== 'string' || error.message === '') return 'an error without a message';
  if (error.field !== undefined && typeof error.field !== 'string') return 'a field that is not a string';
  return undefined;
}

describe(`fuzz: ${RUNS} seeded requests over every service route (seed ${SEED})`, () => {
  let service: TestService;
  before(async () => {
    // The fuzz is about answers, not durability: on a RAM-backed folder its thousands of fsyncs cost little.
    const dir = existsSync('/dev/shm') ? mkdtempSync(join('/dev/shm', 'memory-pool-fuzz-')) : undefined;
    service = await startTestService({
      bots: [testBot('mythos'), testBot('other')],
      ...(dir === undefined ? {} : { dir }),
    });
  });
  after(() => service.close());

  test('no 5xx, no crash, every error in the documented envelope; save → retrieve works afterwards', async () => {
    const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();
    const generator = createRequestGenerator(SEED);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (let index = 0; index < RUNS; index++) {
      const request = generator.next();
      const response = await service.app.request(request.path, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
      });
      const text = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const problem = checkAnswer(request, response.status, text);
      if (problem !== undefined && failures.length < 10) {
        const shown = typeof request.body === 'string' ? request.body.slice(0, 300) : request.body;
        failures.push(
          `#${index} ${request.method} ${request.path} ${JSON.stringify(request.headers)} ${JSON.stringify(shown)}\n  -> ${response.status} ${text.slice(0, 300)}\n  ${problem}`,
        );
      }
    }
    assert.deepEqual(failures, [], `seed ${SEED}: replay with MEMORY_POOL_FUZZ_SEED=${SEED}`);
    // The mix reached the routes, not only the validators: some answers succeeded, some were refused.
    assert.ok((statuses.get(200) ?? 0) > RUNS / 20, JSON.stringify([...statuses]));
    assert.ok((statuses.get(400) ?? 0) > RUNS / 20, JSON.stringify([...statuses]));

    assert.deepEqual(
      Object.getOwnPropertyNames(Object.prototype).sort(),
      prototypeNames,
      'no prototype pollution',
    );
    assert.equal((await service.app.request('/health')).status, 200);
    const saved = await service.post('/save', {
      bot: 'mythos',
      source: 'after-fuzz',
      messages: [
        { speaker_kind: 'user', text: 'My grandmother grew apricots in Samarkand', message_id: 'after-1' },
        { speaker_kind: 'self', text: 'Samarkand apricots are famously sweet!', message_id: 'after-2' },
      ],
    });
    assert.equal(saved.status, 200);
    assert.equal(saved.json.accepted, 2);
    await service.writer.runOnce({ flush: true });
    const recalled = await service.post('/retrieve', {
      bot: 'mythos',
      query_text: 'grandmother apricots Samarkand',
      sources: ['after-fuzz'],
    });
    assert.equal(recalled.status, 200);
    assert.equal(recalled.json.hits[0]?.messageIds, 'after-1,after-2');
  });

  test('over a real socket: odd request lines, framing and hang-ups answer no 5xx and count none', async () => {
    const { pick, int } = createRequestGenerator(SEED + 1);
    const port = Number(new URL(service.url).port);
    const targets = [
      '/save',
      '/retrieve',
      '/forget',
      '/mcp',
      '/bots/mythos/stats',
      '/bots/%ZZ/stats',
      '/bots/%ED%A0%80/stats',
      '/admin/forget-log?limit=%ZZ',
      '/ready',
      '*',
      'http://127.0.0.1/retrieve',
      '/%00',
    ];
    const hosts = [
      'Host: 127.0.0.1\r\n',
      'Host: localhost\r\n',
      'Host: evil.example\r\n',
      '',
      'Host: [::1]\r\n',
      'Host: 127.0.0.1\r\nHost: evil.example\r\n',
    ];
    const bodies = [
      '{"bot":"mythos","query_text":"hello"}',
      '{"bot":"mythos","messages":[]}',
      '{"bot":',
      '',
      `{"bot":"mythos","x":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      '\u0000\u00ff',
    ];
    for (let run = 0; run < SOCKET_RUNS; run++) {
      const body = pick(bodies);
      const method = pick(['POST', 'POST', 'POST', 'GET', 'BREW', 'post', 'POST /x']);
      const framing = pick([
        `Content-Length: ${Buffer.byteLength(body)}\r\n`,
        `Content-Length: ${Buffer.byteLength(body) + 50}\r\n`,
        'Content-Length: -1\r\n',
        'Content-Length: abc\r\n',
        'Content-Length: 5\r\nContent-Length: 6\r\n',
        'Transfer-Encoding: chunked\r\n',
        '',
      ]);
      const payload = framing.startsWith('Transfer')
        ? `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`
        : body;
      const head =
        `${method} ${pick(targets)} ${pick(['HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTCPCP/1.0'])}\r\n${pick(hosts)}` +
        `Content-Type: ${pick(['application/json', 'text/plain'])}\r\nAccept: application/json, text/event-stream\r\n` +
        `Connection: close\r\n${framing}\r\n`;
      const cut = int(payload.length + 1);
      const ending = pick(['whole', 'whole', 'abort', 'split']);
      const chunks =
        ending === 'whole'
          ? [head + payload]
          : ending === 'abort'
            ? [head + payload.slice(0, cut), 'pause' as const, 'abort' as const]
            : [head + payload.slice(0, cut), 'pause' as const, payload.slice(cut)];
      const { status, text } = await exchangeRaw(port, chunks, 100);
      assert.ok(
        status < 500,
        `socket run ${run}: ${JSON.stringify(chunks).slice(0, 300)} -> ${text.slice(0, 200)}`,
      );
    }
    const metrics = await (await service.app.request('/metrics')).text();
    const serverErrors = metrics
      .split('\n')
      .filter((line) => /^memory_pool_http_requests_total\{.*status="5/.test(line));
    assert.deepEqual(serverErrors, [], 'a 5xx was counted (perhaps for a client that hung up)');
    assert.equal((await fetch(`${service.url}/health`)).status, 200);
  });
});
