/**
 * @module The keep-alive fuzz bar (issue 37, service 4): 8 clients on Node's keep-alive agent send /save
 * bodies at random (valid, invalid JSON, wrong type, just over the limit, 1000x over it with a length or
 * chunked), and count the connection errors (resets, EPIPE) they meet. The bar is 0.
 * Run: `node --import tsx bench/keep-alive-fuzz.bench.ts [--requests N]` (default 2000).
 */
import { Agent, request } from 'node:http';
import { startTestService } from '../src/service/test-support/start-test-service.js';

const at = process.argv.indexOf('--requests');
const REQUESTS = at < 0 ? 2000 : Number(process.argv[at + 1]);
const MAX_BODY = 4096;
const CLIENTS = 8;

const service = await startTestService({
  config: { limits: { maxBodyBytes: MAX_BODY, maxMessagesPerSave: 500, maxTextChars: 16_000 } },
});
const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
const statuses: Record<string, number> = {};
const errors: Record<string, number> = {};

const saveOf = (chars: number) =>
  JSON.stringify({
    bot: 'mythos',
    source: 'discord',
    messages: [
      { speaker_kind: 'user', speaker_name: 'H', text: 'x'.repeat(chars), message_id: `${Math.random()}` },
    ],
  });
/** [label, body, chunked, content type]. */
const KINDS: (() => [string, string, boolean, string])[] = [
  () => ['valid', saveOf(50), false, 'application/json'],
  () => ['at the limit', saveOf(MAX_BODY - 200 + Math.floor(Math.random() * 400)), false, 'application/json'],
  () => ['huge chunked', 'x'.repeat(MAX_BODY * 1000), true, 'application/json'],
  () => ['huge', 'x'.repeat(MAX_BODY * 1000), false, 'application/json'],
  () => ['broken JSON', '{"bot":', false, 'application/json'],
  () => ['not JSON', saveOf(50), false, 'text/plain'],
];

function send(): Promise<void> {
  const [label, body, chunked, type] = KINDS[Math.floor(Math.random() * KINDS.length)]!();
  return new Promise((resolve) => {
    const headers: Record<string, string> = { 'content-type': type };
    if (!chunked) headers['content-length'] = String(Buffer.byteLength(body));
    const req = request(`${service.url}/save`, { method: 'POST', agent, headers }, (res) => {
      statuses[res.statusCode!] = (statuses[res.statusCode!] ?? 0) + 1;
      res.resume();
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      const key = `${label}: ${error.code ?? error.message}`;
      errors[key] = (errors[key] ?? 0) + 1;
    });
    req.on('close', () => resolve());
    if (!chunked) return void req.end(body);
    for (let offset = 0; offset < body.length; offset += 16_384)
      req.write(body.slice(offset, offset + 16_384));
    req.end();
  });
}

let sent = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    while (sent++ < REQUESTS) await send();
  }),
);
const seconds = (performance.now() - started) / 1000;
const resets = Object.values(errors).reduce((sum, n) => sum + n, 0);
console.log(`requests | statuses | connection errors (bar: 0) | seconds`);
console.log(
  `${REQUESTS} | ${JSON.stringify(statuses)} | ${resets} ${JSON.stringify(errors)} | ${seconds.toFixed(1)}`,
);
agent.destroy();
await service.close();
process.exitCode = resets === 0 ? 0 : 1;
