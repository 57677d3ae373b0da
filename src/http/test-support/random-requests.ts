/**
 * @module A small seeded generator of hostile requests for the service's fuzz test: valid bodies mutated
 * field by field, wrong types, huge and deep values, unicode edge cases (lone surrogates, NUL, BOM), prototype
 * keys, odd bot names, broken JSON, odd content types and methods. The same seed gives the same requests.
 * One file past 300 lines on purpose: the tables of odd values and the generator that uses them belong together.
 */
import { seededRandom } from '../../runtime/seeded-random.js';

/** One generated request, replayable from its description alone. */
export interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Uint8Array;
}

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
const BOT_NAMES = [
  'mythos',
  'MYTHOS',
  '',
  ' ',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '../mythos',
  'mythos\u0000',
  'mythös',
  '🤖',
  'a'.repeat(300),
  '%2e%2e',
  'mythos/../x',
  'null',
  '\ud800',
];
const STRINGS = [
  '',
  ' ',
  'hello',
  '\u0000',
  '\ud800',
  '\udfff',
  'a\ud83dz',
  '\ufeffbom',
  '\u202eevil',
  '\u2028\u2029',
  'e\u0301',
  '👨‍👩‍👧‍👦',
  'Ω≈ç√',
  '<script>alert(1)</script>',
  "'; DROP TABLE messages; --",
  'a,b,c',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal text, as a config-style placeholder a client might send
  '${HOME}',
  '%00',
  '\\',
  '"',
  '{{',
  'Infinity',
  'NaN',
  '-0',
  '[object Object]',
  ...PROTO_KEYS,
];
const NUMBERS = [
  0,
  -0,
  1,
  -1,
  1.5,
  2 ** 31,
  2 ** 53 + 1,
  -(2 ** 63),
  1e308,
  -1e308,
  5e-324,
  1e12,
  1e9,
  1_700_000_000_000,
];
const RAW_JSON = [
  '',
  ' ',
  'null',
  'true',
  '1',
  '"text"',
  '[]',
  '{}',
  '{',
  '{"bot":',
  '{"bot":"mythos",}',
  "{'bot':'mythos'}",
  '{"bot":"mythos"}{"bot":"mythos"}',
  '\ufeff{"bot":"mythos"}',
  '{"bot":"mythos","query_text":"x"',
  '1e999',
  '{"bot":"mythos","query_text":1e999}',
  '{"a":NaN}',
  '{"__proto__":{"polluted":true},"bot":"mythos"}',
  '{"bot":"mythos","bot":"other"}',
  '{"bot":"\\ud800","query_text":"\\udfff"}',
  '{"bot":"mythos","query_text":"\\u0000"}',
];
const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'text/json',
  'application/json; charset=latin1',
  'application/vnd.test+json',
  'APPLICATION/JSON',
  'application/jsonx',
  ';',
  'json',
];
const METHODS = ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND'];

/** Percent-encodes `text`; a lone surrogate (which encodeURIComponent refuses) becomes its raw UTF-8 bytes, invalid on purpose. */
function encodePathPart(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return `${encodeURIComponent(text.replace(/[\ud800-\udfff]/g, ''))}%ED%A0%80`;
  }
}

/** The generator: `next()` yields the next request, `pick` and friends are exposed for the test's own use. */
export function createRequestGenerator(seed: number) {
  const random = seededRandom(seed);
  const int = (below: number) => Math.floor(random() * below);
  const chance = (p: number) => random() < p;
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;

  const deep = (levels: number): unknown => {
    let value: unknown = pick([1, 'x', null]);
    for (let i = 0; i < levels; i++) value = chance(0.5) ? [value] : { a: value };
    return value;
  };
  const randomString = (): string => {
    switch (int(6)) {
      case 0:
        return 'x'.repeat(pick([1000, 16_001, 20_001, 100_000]));
      case 1:
        return Array.from({ length: 1 + int(40) }, () => String.fromCharCode(int(0x10000))).join('');
      case 2:
        return `id-${int(50)}`;
      default:
        return pick(STRINGS);
    }
  };
  const randomValue = (depth = 0): unknown => {
    switch (int(depth > 2 ? 4 : 8)) {
      case 0:
        return null;
      case 1:
        return chance(0.5);
      case 2:
        return pick(NUMBERS);
      case 3:
        return randomString();
      case 4:
        return Array.from({ length: int(4) }, () => randomValue(depth + 1));
      case 5: {
        const object: Record<string, unknown> = {};
        for (let i = int(4); i > 0; i--)
          object[chance(0.4) ? pick(PROTO_KEYS) : randomString()] = randomValue(depth + 1);
        return object;
      }
      case 6:
        return deep(pick([10, 63, 64, 65, 200, 1000]));
      default:
        return Array.from({ length: pick([100, 1001]) }, () => `id-${int(50)}`);
    }
  };

  const message = (): Record<string, unknown> => ({
    speaker_kind: pick(['user', 'self']),
    text: chance(0.8) ? `fuzz text ${int(1000)}` : randomString(),
    message_id: `fuzz-${int(500)}`,
    ...(chance(0.3) ? { ts: pick(NUMBERS) } : {}),
    ...(chance(0.3) ? { channel_id: pick(['c1', 'c2', randomString()]) } : {}),
    ...(chance(0.2) ? { guild_id: pick(['g1', randomString()]) } : {}),
    ...(chance(0.2) ? { discord_user_id: pick(['705512345678901234', randomString()]) } : {}),
    ...(chance(0.1) ? { is_dm: randomValue() } : {}),
  });
  const templates: Record<string, () => Record<string, unknown>> = {
    '/save': () => ({
      bot: 'mythos',
      ...(chance(0.5) ? { source: pick(['api', 'fuzz', randomString()]) } : {}),
      messages: Array.from({ length: 1 + int(3) }, message),
    }),
    '/retrieve': () => ({
      bot: 'mythos',
      query_text: chance(0.8) ? `fuzz text ${int(1000)}` : randomString(),
      ...(chance(0.3) ? { limit: pick([1, 5, 50, 0, 51, 2.5]) } : {}),
      ...(chance(0.2) ? { scope: pick(['global', 'guild', 'channel', 'dm-private', 'everything']) } : {}),
      ...(chance(0.2) ? { sources: [pick(['api', 'fuzz', randomString()])] } : {}),
      ...(chance(0.2) ? { exclude_message_ids: [`fuzz-${int(500)}`] } : {}),
      ...(chance(0.2) ? { readable_channel_ids: pick([['c1'], ['c2', ' '], [], 'c1', [1]]) } : {}),
      ...(chance(0.2) ? { guild_id: 'g1', channel_id: 'c1' } : {}),
    }),
    '/forget': () => {
      const selectors = [
        { message_ids: [`fuzz-${int(500)}`] },
        { source: pick(['fuzz', 'api', null]) },
        { discord_user_id: 'u1' },
        { user_id: 'telegram:1' },
        { channel_id: 'c2' },
        { guild_id: 'g9' },
        { source: null, include_unsourced: true },
        {},
        { message_ids: [], source: 'fuzz' },
      ];
      return { bot: 'mythos', ...pick(selectors) };
    },
    '/mcp': () => {
      const call = pick([
        {
          method: 'initialize',
          params: {
            protocolVersion: '2025-03-26',
            capabilities: {},
            clientInfo: { name: 'fuzz', version: '1' },
          },
        },
        { method: 'tools/list' },
        { method: 'resources/list' },
        {
          method: 'resources/read',
          params: { uri: pick(['memory-pool://bots/mythos', 'memory-pool://bots/nobody', randomString()]) },
        },
        { method: 'tools/call', params: { name: 'recall', arguments: { query: `fuzz text ${int(1000)}` } } },
        { method: 'tools/call', params: { name: 'remember', arguments: { text: `fuzz text ${int(1000)}` } } },
        {
          method: 'tools/call',
          params: { name: 'forget', arguments: { message_ids: [`fuzz-${int(500)}`] } },
        },
        { method: 'tools/call', params: { name: pick(['nope', ...PROTO_KEYS]), arguments: {} } },
        { method: randomString() },
      ]);
      return {
        jsonrpc: '2.0',
        ...(chance(0.9) ? { id: chance(0.8) ? int(1000) : randomValue() } : {}),
        ...call,
      };
    },
  };

  /** A template body with one to three of its fields (at any depth) replaced, removed or joined by an odd key. */
  const mutate = (body: Record<string, unknown>): unknown => {
    const rounds = int(4);
    for (let round = 0; round < rounds; round++) {
      let target: Record<string, unknown> = body;
      // Walk down into nested objects and arrays now and then (messages[1], params.arguments).
      for (let step = 0; step < 3; step++) {
        const children = Object.values(target).filter((v) => v !== null && typeof v === 'object');
        if (children.length === 0 || chance(0.5)) break;
        target = pick(children) as Record<string, unknown>;
      }
      const keys = Object.keys(target);
      const key = keys.length > 0 && chance(0.7) ? pick(keys) : pick([...PROTO_KEYS, randomString()]);
      if (chance(0.2)) delete target[key];
      else
        Object.defineProperty(target, key, {
          value: randomValue(),
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
    return chance(0.05) ? randomValue() : body;
  };

  const jsonHeaders = (): Record<string, string> => {
    const headers: Record<string, string> = {};
    const roll = random();
    if (roll < 0.85) headers['content-type'] = pick(['application/json', 'application/json; charset=utf-8']);
    else if (roll < 0.97) headers['content-type'] = pick(CONTENT_TYPES);
    if (chance(0.05))
      headers.origin = pick(['null', 'http://evil.example', 'http://127.0.0.1:8000', 'file://']);
    if (chance(0.05))
      headers.authorization = pick(['Bearer ', 'bearer x', 'Basic Zm9vOmJhcg==', 'Bearer \u00e9']);
    return headers;
  };

  const body = (path: string): string | Uint8Array => {
    const roll = random();
    if (roll < 0.06) return pick(RAW_JSON);
    if (roll < 0.08) return new Uint8Array(Array.from({ length: 1 + int(64) }, () => 0x80 + int(0x80)));
    if (roll < 0.1) return JSON.stringify(templates[path]!()).slice(0, -1 - int(5));
    if (roll < 0.11) {
      // Built as text: JSON.stringify itself overflows the stack on 5,000 levels.
      const levels = pick([5000, 100_000]);
      const [open, close] = chance(0.5) ? ['[', ']'] : ['{"a":', '}'];
      const inner = `${open.repeat(levels)}1${close.repeat(levels)}`;
      const template = JSON.stringify(templates[path]!());
      return `${template.slice(0, -1)},"deep":${inner}}`;
    }
    if (roll < 0.102) return JSON.stringify({ bot: 'mythos', padding: 'x'.repeat(1_100_000) });
    return JSON.stringify(mutate(templates[path]!()));
  };

  const next = (): FuzzRequest => {
    const roll = random();
    if (roll < 0.75) {
      const path = pick(['/save', '/retrieve', '/forget', '/mcp']);
      const headers = jsonHeaders();
      if (path === '/mcp' && chance(0.9)) headers.accept = 'application/json, text/event-stream';
      const method = chance(0.95) ? 'POST' : pick(METHODS);
      // A GET or HEAD with a body cannot be built with fetch's Request; it goes without.
      const sent = method === 'GET' || method === 'HEAD' ? {} : { body: body(path) };
      return { method, path, headers, ...sent };
    }
    const headers: Record<string, string> = chance(0.05) ? { origin: 'null' } : {};
    const method = chance(0.9) ? 'GET' : pick(['POST', 'DELETE', 'HEAD', 'OPTIONS', 'PUT']);
    const bot = encodePathPart(pick(BOT_NAMES));
    const query = (name: string, value: string) => (chance(0.5) ? `${name}=${encodePathPart(value)}` : '');
    const path = pick([
      `/bots/${bot}/stats`,
      `/bots/${bot}/stats/extra`,
      `/admin/forget-log?${query('bot', pick(BOT_NAMES))}&${query('limit', String(pick([...NUMBERS, 'ten', '', '1000', '1001'])))}`,
      '/health',
      '/ready',
      '/metrics',
      `/${encodePathPart(randomString()).slice(0, 200)}`,
      '/save/',
      '//save',
      '/SAVE',
    ]);
    return {
      method,
      path,
      headers,
      ...(method === 'POST' || method === 'PUT' ? { body: JSON.stringify(randomValue()) } : {}),
    };
  };

  return { next, pick, int };
}
