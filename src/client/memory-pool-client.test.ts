/** @module MemoryPoolClient against a real service, plus tiny local servers for timeouts and retries. */
import assert from 'node:assert/strict';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { RetrieveRequest } from '../wire/retrieve-request.js';
import { type TestService, startTestService } from '../service/test-support/start-test-service.js';
import {
  MemoryPoolApiError,
  MemoryPoolNetworkError,
  MemoryPoolTimeoutError,
} from './memory-pool-client-errors.js';
import { MemoryPoolClient } from './memory-pool-client.js';

const window = [
  {
    speaker_kind: 'user' as const,
    speaker_name: 'Ana',
    message_id: 'c1',
    text: 'My cat Pixel loves cardboard boxes and sleeps in them all day long.',
  },
  {
    speaker_kind: 'self' as const,
    message_id: 'c2',
    text: 'Pixel sounds adorable; cardboard boxes are the best cat beds there are.',
  },
  {
    speaker_kind: 'user' as const,
    speaker_name: 'Ana',
    message_id: 'c3',
    text: 'She also knocks my coffee mug off the desk every single morning.',
  },
];

describe('MemoryPoolClient against the service', () => {
  let service: TestService;
  let client: MemoryPoolClient;
  before(async () => {
    service = await startTestService();
    client = new MemoryPoolClient({ baseUrl: service.url });
  });
  after(() => service.close());

  test('asks a link code, reads it waiting, redeems it, and reads it redeemed into the person', async () => {
    const account = { discord_user_id: '8801' };
    const given = await client.createLinkCode('mythos', { account });
    assert.equal((await client.linkCodeStatus('mythos', { code: given.code, account })).status, 'waiting');
    const person = await client.redeemLinkCode('mythos', {
      code: given.code,
      account: { user_id: 'telegram:8801' },
    });
    const status = await client.linkCodeStatus('mythos', { code: given.code, account });
    assert.deepEqual([status.status, status.person?.id], ['redeemed', person.id]);
  });

  test('saves a window, counts a re-sent window as duplicates, and recalls it after a flush', async () => {
    assert.deepEqual(await client.save({ bot: 'mythos', source: 'discord', messages: window }), {
      ok: true,
      accepted: 3,
      duplicates: 0,
      edited: 0,
      forgotten: 0,
    });
    assert.deepEqual(await client.save({ bot: 'mythos', source: 'discord', messages: window }), {
      ok: true,
      accepted: 0,
      duplicates: 3,
      edited: 0,
      forgotten: 0,
    });
    await service.writer.runOnce({ flush: true });
    const recalled = await client.retrieve({
      bot: 'mythos',
      query_text: 'Pixel the cat and cardboard boxes',
    });
    assert.ok(recalled.hits.length > 0);
    assert.match(recalled.hits[0]!.text, /Pixel/);
    assert.equal(recalled.hits[0]!.source, 'discord');
    assert.match(recalled.formatted, /Past chat memories/);
  });

  test('the privacy and source fields of retrieve reach the service', async () => {
    await client.save({
      bot: 'mythos',
      source: 'discord',
      messages: [
        {
          speaker_kind: 'user',
          speaker_name: 'Ana',
          message_id: 'g1',
          guild_id: 'guild-a',
          channel_id: 'chan-a',
          text: 'In our guild the lighthouse keeper Mara paints gulls on driftwood every winter evening.',
        },
      ],
    });
    await service.writer.runOnce({ flush: true });
    const query = { bot: 'mythos', query_text: 'lighthouse keeper Mara paints gulls', limit: 10 };
    const ids = async (extra: Partial<RetrieveRequest>) =>
      (await client.retrieve({ ...query, ...extra })).hits.map((hit) => hit.messageIds);
    assert.ok((await ids({ guild_id: 'guild-a', scope: 'guild' })).includes('g1'));
    assert.ok(!(await ids({ guild_id: 'guild-b', scope: 'guild' })).includes('g1'), 'another guild');
    assert.ok((await ids({ sources: ['discord'] })).includes('g1'));
    assert.deepEqual(await ids({ sources: ['hermes'] }), []);
    await assert.rejects(client.retrieve({ ...query, sources: [] }), {
      code: 'validation_failed',
      field: 'sources',
    });
  });

  test('the time fields of retrieve reach the service, and explain shows the window', async () => {
    const query = { bot: 'mythos', query_text: 'lighthouse keeper Mara paints gulls today', limit: 10 };
    const today = await client.retrieve({ ...query, now: Date.now(), tz: 'UTC', explain: true });
    assert.ok(today.hits.some((hit) => hit.messageIds === 'g1'));
    assert.equal(today.time_window?.text, 'today');
    const then = await client.retrieve({ ...query, time_from: '2001-01-01', time_to: '2001-01-02' });
    assert.deepEqual(then.hits, []);
    await assert.rejects(client.retrieve({ ...query, tz: 'Mars/Olympus' }), {
      code: 'validation_failed',
      field: 'tz',
    });
  });

  test('max_chars reaches the service: the block stays within it', async () => {
    const query = { bot: 'mythos', query_text: 'lighthouse keeper Mara paints gulls', limit: 10 };
    const whole = await client.retrieve(query);
    assert.ok(whole.formatted.length > 0);
    const fitted = await client.retrieve({ ...query, max_chars: whole.formatted.length - 1 });
    assert.ok(fitted.formatted.length < whole.formatted.length);
    await assert.rejects(client.retrieve({ ...query, max_chars: 0 }), {
      code: 'validation_failed',
      field: 'max_chars',
    });
  });

  test('a 400 becomes MemoryPoolApiError naming the field', async () => {
    const error = await client.retrieve({ bot: 'mythos', query_text: '' }).then(
      () => assert.fail('expected a rejection'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof MemoryPoolApiError);
    assert.equal(error.status, 400);
    assert.equal(error.code, 'validation_failed');
    assert.equal(error.field, 'query_text');
    assert.equal(error.retryable, false);
  });

  test('an unknown bot is a 404 with its code', async () => {
    await assert.rejects(client.retrieve({ bot: 'nobody', query_text: 'x' }), {
      status: 404,
      code: 'unknown_bot',
    });
  });

  test('health and ready', async () => {
    assert.deepEqual(await client.health(), { status: 'ok' });
    assert.equal((await client.ready()).ready, true);
  });
});

describe('MemoryPoolClient with API keys', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({
      config: {
        apiKeys: [
          {
            name: 'bot',
            key: 'k-123456789012345678901234',
            scopes: ['save', 'retrieve'],
            bots: '*',
            sources: '*',
          },
        ],
      },
    });
  });
  after(() => service.close());

  test('sends the key as a bearer token, and a missing key is a 401', async () => {
    const keyed = new MemoryPoolClient({ baseUrl: service.url, apiKey: 'k-123456789012345678901234' });
    assert.deepEqual((await keyed.retrieve({ bot: 'mythos', query_text: 'anything' })).hits, []);
    const anonymous = new MemoryPoolClient({ baseUrl: service.url });
    await assert.rejects(anonymous.retrieve({ bot: 'mythos', query_text: 'anything' }), {
      status: 401,
      code: 'unauthorized',
    });
  });
});

const FORGET_KEYS = {
  bot: 'bot-key-0123456789abcdefghij',
  forgetter: 'forget-key-0123456789abcdefg',
  admin: 'admin-key-0123456789abcdefgh',
};

describe('MemoryPoolClient forget and the forget log', () => {
  let service: TestService;
  const as = (key: keyof typeof FORGET_KEYS) =>
    new MemoryPoolClient({ baseUrl: service.url, apiKey: FORGET_KEYS[key], retryDelayMs: 1 });
  before(async () => {
    service = await startTestService({
      config: {
        apiKeys: [
          { name: 'bot', key: FORGET_KEYS.bot, scopes: ['save', 'retrieve'], bots: '*', sources: '*' },
          {
            name: 'forgetter',
            key: FORGET_KEYS.forgetter,
            scopes: ['save', 'retrieve', 'forget'],
            bots: '*',
            sources: '*',
          },
          { name: 'admin', key: FORGET_KEYS.admin, scopes: ['admin'], bots: '*', sources: '*' },
        ],
      },
    });
  });
  after(() => service.close());

  test('save -> flush -> forget one message: recall no longer has it, and a repeat answers zeros', async () => {
    const client = as('forgetter');
    await client.save({ bot: 'mythos', source: 'discord', messages: window });
    await service.writer.runOnce({ flush: true });
    const query = { bot: 'mythos', query_text: 'Pixel the cat and cardboard boxes', limit: 10 };
    const before = await client.retrieve(query);
    assert.ok(before.hits.some((hit) => hit.messageIds.split(',').includes('c1')));

    const forgotten = await client.forget({ bot: 'mythos', message_ids: ['c1'] });
    assert.equal(forgotten.ok, true);
    assert.equal(forgotten.messages_forgotten, 1);
    assert.equal(forgotten.points_deleted + forgotten.points_rewritten, 1);
    const after = await client.retrieve(query);
    assert.ok(after.hits.every((hit) => !hit.messageIds.split(',').includes('c1')));
    assert.ok(after.hits.every((hit) => !hit.text.includes('sleeps in them all day')));
    assert.doesNotMatch(after.formatted, /sleeps in them all day/);

    assert.deepEqual(await client.forget({ bot: 'mythos', message_ids: ['c1'] }), {
      ok: true,
      points_deleted: 0,
      points_rewritten: 0,
      pending_dropped: 0,
      messages_forgotten: 0,
    });
    const resent = await client.save({ bot: 'mythos', source: 'discord', messages: window });
    assert.equal(resent.forgotten, 1, 'a re-sent window does not bring the forgotten message back');
  });

  test('a key without the forget scope is refused with forbidden, and not retried', async () => {
    const error = await as('bot')
      .forget({ bot: 'mythos', message_ids: ['c2'] })
      .then(
        () => assert.fail('expected a rejection'),
        (e: unknown) => e,
      );
    assert.ok(error instanceof MemoryPoolApiError);
    assert.equal(error.code, 'forbidden');
    assert.equal(error.status, 403);
    assert.equal(error.retryable, false);
  });

  test('forgetLog with an admin key lists the forgets newest first, filtered and limited', async () => {
    await as('forgetter').forget({ bot: 'mythos', message_ids: ['c3'] });
    const { entries } = await as('admin').forgetLog({ bot: 'mythos' });
    assert.ok(entries.length >= 2);
    const newest = entries[0]!;
    assert.equal(newest.bot, 'mythos');
    assert.equal(newest.actor, 'forgetter');
    assert.deepEqual(newest.selector, { message_ids: ['c3'] });
    assert.equal(newest.result.messages_forgotten, 1);
    assert.ok(entries[0]!.id > entries[1]!.id);
    assert.equal((await as('admin').forgetLog({ limit: 1 })).entries.length, 1);
    await assert.rejects(as('forgetter').forgetLog(), { status: 403, code: 'forbidden' });
    await assert.rejects(as('admin').forgetLog({ limit: 0 }), { status: 400, code: 'validation_failed' });
  });
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('MemoryPoolClient transport', () => {
  test('a server that never answers is a MemoryPoolTimeoutError', async () => {
    const server = createServer(() => {});
    const url = await listen(server);
    try {
      const client = new MemoryPoolClient({ baseUrl: url, timeoutMs: 100 });
      await assert.rejects(client.health(), MemoryPoolTimeoutError);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  test('retries a 503 and succeeds on the third attempt', async () => {
    let calls = 0;
    const server = createServer((_req, res) => {
      calls++;
      if (calls < 3) {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'store_unavailable', message: 'down' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ hits: [], formatted: '' }));
    });
    const url = await listen(server);
    try {
      const client = new MemoryPoolClient({ baseUrl: url, retryDelayMs: 1 });
      assert.deepEqual(await client.retrieve({ bot: 'b', query_text: 'q' }), { hits: [], formatted: '' });
      assert.equal(calls, 3);
    } finally {
      server.close();
    }
  });

  test('gives up after the configured retries with the last API error, and never retries a 400', async () => {
    let calls = 0;
    const server = createServer((req, res) => {
      calls++;
      const status = req.url === '/save' ? 400 : 503;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { code: status === 400 ? 'validation_failed' : 'store_unavailable', message: 'no' },
        }),
      );
    });
    const url = await listen(server);
    try {
      const client = new MemoryPoolClient({ baseUrl: url, retries: 1, retryDelayMs: 1 });
      await assert.rejects(client.retrieve({ bot: 'b', query_text: 'q' }), {
        status: 503,
        code: 'store_unavailable',
      });
      assert.equal(calls, 2);
      calls = 0;
      await assert.rejects(client.save({ bot: 'b', messages: [] }), { status: 400 });
      assert.equal(calls, 1);
    } finally {
      server.close();
    }
  });

  test('ready() resolves with ready: false on a 503 and does not retry it', async () => {
    let calls = 0;
    const server = createServer((_req, res) => {
      calls++;
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ ready: false, checks: { store: { ok: false, error: 'connection refused' } } }),
      );
    });
    const url = await listen(server);
    try {
      const client = new MemoryPoolClient({ baseUrl: url, retryDelayMs: 1 });
      assert.deepEqual(await client.ready(), {
        ready: false,
        checks: { store: { ok: false, error: 'connection refused' } },
      });
      assert.equal(calls, 1);
    } finally {
      server.close();
    }
  });

  test('a 429 with Retry-After is retried and the wait is reported on the error', async () => {
    let calls = 0;
    const server = createServer((_req, res) => {
      calls++;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
      res.end(JSON.stringify({ error: { code: 'embedding_rate_limited', message: 'slow down' } }));
    });
    const url = await listen(server);
    try {
      const client = new MemoryPoolClient({ baseUrl: url, retries: 1 });
      await assert.rejects(client.retrieve({ bot: 'b', query_text: 'q' }), {
        status: 429,
        code: 'embedding_rate_limited',
        retryAfterMs: 0,
      });
      assert.equal(calls, 2);
    } finally {
      server.close();
    }
  });

  test('the error reports the Retry-After the service asked for, though a retry waits at most 5 s', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '60' });
      res.end(JSON.stringify({ error: { code: 'store_unavailable', message: 'down' } }));
    });
    const url = await listen(server);
    try {
      const client = new MemoryPoolClient({ baseUrl: url, retries: 0 });
      await assert.rejects(client.retrieve({ bot: 'b', query_text: 'q' }), {
        code: 'store_unavailable',
        retryAfterMs: 60_000,
      });
    } finally {
      server.close();
    }
  });

  test("the caller's signal ends a retry wait at once, with the caller's reason", async () => {
    let calls = 0;
    const server = createServer((_req, res) => {
      calls++;
      // The service asks for a long wait: without the signal the call would sit here for the capped 5 s.
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '60' });
      res.end(JSON.stringify({ error: { code: 'store_unavailable', message: 'down' } }));
    });
    const url = await listen(server);
    try {
      const client = new MemoryPoolClient({ baseUrl: url, retries: 2 });
      const controller = new AbortController();
      const pending = client.retrieve({ bot: 'b', query_text: 'q' }, { signal: controller.signal });
      while (calls === 0) await new Promise((resolve) => setImmediate(resolve));
      const aborted = Date.now();
      controller.abort(new Error('user went away'));
      await assert.rejects(pending, /user went away/);
      assert.ok(Date.now() - aborted < 2_000, 'the wait ended with the abort');
      assert.equal(calls, 1);
    } finally {
      server.close();
    }
  });

  test('a refused connection is a MemoryPoolNetworkError after its retries', async () => {
    const server = createServer();
    const url = await listen(server);
    await new Promise((resolve) => server.close(resolve));
    const client = new MemoryPoolClient({ baseUrl: url, retryDelayMs: 1 });
    await assert.rejects(client.health(), (error: unknown) => {
      assert.ok(error instanceof MemoryPoolNetworkError);
      assert.match(error.message, /memory-pool serve/);
      return true;
    });
  });

  test('a baseUrl that is not an http URL fails at construction with the fix', () => {
    assert.throws(() => new MemoryPoolClient({ baseUrl: 'localhost:3102' }), /pass e\.g\. http/);
    assert.throws(() => new MemoryPoolClient({ baseUrl: 'not a url' }), /pass e\.g\. http/);
  });
});
