/** @module A local chat-completions server that records each request and streams a fixed reply back. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeChatRequest {
  readonly messages: { role: string; content: string }[];
  readonly stream: boolean;
  readonly model: string;
}

export interface FakeChat {
  /** The OpenAI-compatible base URL, for `companion.baseUrl`. */
  readonly url: string;
  readonly requests: FakeChatRequest[];
  close(): Promise<void>;
}

/** Streams `reply` back in small deltas (700 characters each), as chat APIs stream. */
export async function startFakeChat(reply: string): Promise<FakeChat> {
  const requests: FakeChatRequest[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      requests.push(JSON.parse(body));
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let at = 0; at < reply.length; at += 700) {
        response.write(
          `data: ${JSON.stringify({ choices: [{ delta: { content: reply.slice(at, at + 700) } }] })}\n\n`,
        );
      }
      response.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
