/**
 * @module A local stand-in for Discord: a REST API that records every call the bot makes, and a gateway
 * (WebSocket) that says hello, answers IDENTIFY with READY and each guild's GUILD_CREATE, and then sends
 * whatever packets a test dispatches. A real discord.js Client logs in to it; nothing leaves the machine.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

export interface RecordedCall {
  readonly method: string;
  /** The path after `/api/v10`, e.g. `/interactions/1/tok/callback`. */
  readonly path: string;
  /** The query string, e.g. `limit=100`, or "". */
  readonly query: string;
  readonly body: unknown;
}

/** Answers one REST call; `undefined` falls through to the defaults (gateway info, `{}`). */
export type RestResponder = (call: RecordedCall) => { status?: number; body: unknown } | undefined;

export interface FakeDiscordOptions {
  /** The bot account, sent in READY. */
  readonly botUser: { readonly id: string; readonly username: string };
  /** GUILD_CREATE payloads sent after READY (the guilds the bot is in). */
  readonly guilds?: readonly Record<string, unknown>[];
  /** When set, the gateway closes the socket with this code instead of answering IDENTIFY (e.g. 4014). */
  readonly closeOnIdentify?: number;
}

export interface FakeDiscord {
  /** Pass as the Client's `rest.api` option. */
  readonly restBase: string;
  readonly calls: RecordedCall[];
  /** Adds a REST answer, tried before the earlier ones. */
  respond(responder: RestResponder): void;
  /** Sends one dispatch packet; resolves with its sequence number once it is written to the socket. */
  dispatch(t: string, d: unknown): Promise<number>;
  /** The intents the client identified with. */
  readonly identifiedIntents: number | undefined;
  /** How many gateway connections identified so far (one per login). */
  readonly identifications: number;
  close(): Promise<void>;
}

const API_PREFIX = '/api/v10';

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text; // multipart uploads: tests look at the text
  }
}

/** Starts the stand-in on a free loopback port. */
export async function startFakeDiscord(options: FakeDiscordOptions): Promise<FakeDiscord> {
  const calls: RecordedCall[] = [];
  const responders: RestResponder[] = [];
  let socket: WebSocket | undefined;
  let sequence = 0;
  let identifiedIntents: number | undefined;
  let identifications = 0;
  const http = createServer((request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      const path = url.pathname.startsWith(API_PREFIX) ? url.pathname.slice(API_PREFIX.length) : url.pathname;
      const call: RecordedCall = {
        method: request.method ?? 'GET',
        path,
        query: url.search.slice(1),
        body: await readBody(request),
      };
      calls.push(call);
      const answer =
        responders.map((responder) => responder(call)).find((found) => found !== undefined) ??
        (path === '/gateway/bot'
          ? {
              body: {
                url: `ws://127.0.0.1:${(http.address() as AddressInfo).port}`,
                shards: 1,
                session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 },
              },
            }
          : // A channel's history: none unless a test answers (a restart reads the gap it left).
            request.method === 'GET' && /^\/channels\/\d+\/messages$/.test(path)
            ? { body: [] }
            : { body: {} });
      response.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
      response.end(answer.status === 204 ? undefined : JSON.stringify(answer.body));
    })();
  });
  const gateway = new WebSocketServer({ server: http });
  const send = (payload: unknown) =>
    new Promise<void>((resolve, reject) => {
      if (socket === undefined) return reject(new Error('fake Discord: no client is connected'));
      socket.send(JSON.stringify(payload), (error) => (error ? reject(error) : resolve()));
    });
  const dispatch = (t: string, d: unknown) => {
    sequence += 1;
    const s = sequence;
    return send({ op: 0, t, s, d }).then(() => s);
  };
  gateway.on('connection', (connection) => {
    socket = connection;
    connection.on('message', (raw) => {
      const packet = JSON.parse(String(raw)) as { op: number; d: { intents?: number } };
      if (packet.op === 1) void send({ op: 11 });
      if (packet.op !== 2) return;
      identifiedIntents = packet.d.intents;
      identifications += 1;
      if (options.closeOnIdentify !== undefined) {
        connection.close(options.closeOnIdentify, 'closed by the fake gateway');
        return;
      }
      void (async () => {
        await dispatch('READY', {
          v: 10,
          user: { ...options.botUser, discriminator: '0', bot: true, avatar: null, global_name: null },
          guilds: (options.guilds ?? []).map((guild) => ({ id: guild.id, unavailable: true })),
          session_id: 'fake-session',
          resume_gateway_url: `ws://127.0.0.1:${(http.address() as AddressInfo).port}`,
          application: { id: options.botUser.id, flags: 0 },
          shard: [0, 1],
        });
        for (const guild of options.guilds ?? []) await dispatch('GUILD_CREATE', guild);
      })();
    });
    void send({ op: 10, d: { heartbeat_interval: 45_000 } });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    restBase: `http://127.0.0.1:${(http.address() as AddressInfo).port}/api`,
    calls,
    respond: (responder) => void responders.unshift(responder),
    dispatch,
    get identifiedIntents() {
      return identifiedIntents;
    },
    get identifications() {
      return identifications;
    },
    close: async () => {
      for (const client of gateway.clients) client.terminate();
      await new Promise<void>((resolve) => gateway.close(() => resolve()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
