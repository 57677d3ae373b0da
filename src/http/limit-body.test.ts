import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestService, type TestService } from '../service/test-support/start-test-service.js';
import { exchangeRaw } from './test-support/raw-http-exchange.js';

describe('uploads a client breaks off or garbles', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(() => service.close());

  test("are the client's fault: no request is answered or counted as a 5xx", async () => {
    const port = Number(new URL(service.url).port);
    const body = JSON.stringify({ bot: 'mythos', query_text: 'hello' });
    const head = (path: string, framing: string) =>
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n${framing}\r\n`;
    for (const path of ['/retrieve', '/save', '/forget', '/mcp']) {
      // Half the declared length, then the connection is reset.
      await exchangeRaw(port, [head(path, 'Content-Length: 500\r\n'), body.slice(0, 10), 'pause', 'abort']);
      // A chunked upload cut off after its first chunk.
      await exchangeRaw(port, [
        head(path, 'Transfer-Encoding: chunked\r\n'),
        `a\r\n${body.slice(0, 10)}\r\n`,
        'pause',
        'abort',
      ]);
      // A chunk size that is not hexadecimal.
      const garbled = await exchangeRaw(port, [
        head(path, 'Transfer-Encoding: chunked\r\n'),
        'ZZ\r\nabc\r\n0\r\n\r\n',
      ]);
      assert.equal(garbled.status, 400, path);
    }
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    const serverErrors = metrics
      .split('\n')
      .filter((line) => /^memory_pool_http_requests_total\{.*status="5/.test(line));
    assert.deepEqual(serverErrors, []);
  });
});
