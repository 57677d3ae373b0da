import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { InvalidConfigError } from './config-problems.js';
import type { MemoryPoolConfig } from './config-types.js';
import { loadConfig } from './load-config.js';

function load(yaml: string, env: NodeJS.ProcessEnv = {}): MemoryPoolConfig {
  const path = join(mkdtempSync(join(tmpdir(), 'memory-pool-schema-')), 'memory-pool.yaml');
  writeFileSync(path, yaml);
  return loadConfig({ configPath: path, env });
}

/** The problems a refused config reports, as the `path: message` text a user reads. */
function problemsFor(yaml: string, env: NodeJS.ProcessEnv = {}): string[] {
  try {
    load(yaml, env);
  } catch (error) {
    assert.ok(error instanceof InvalidConfigError, String(error));
    assert.equal(error.code, 'config_invalid');
    return error.problems.map((problem) => `${problem.path}: ${problem.message}`);
  }
  assert.fail('expected the config to be refused');
}

const BOT = 'bots:\n  m:\n    selfSpeaker: M\n';

describe('config validation', () => {
  const cases: [string, string, RegExp][] = [
    [
      'a port that is not a number',
      'listen: { port: abc }',
      /^listen\.port: expected an integer from 1 to 65535, got "abc"\. Set a free TCP port/,
    ],
    [
      'a CORS origin with a path',
      'store: { embedded: { corsOrigins: [http://st.home.arpa:8000/chat] } }',
      /^store\.embedded\.corsOrigins\[0\]: expected a web origin such as http:\/\/localhost:8000 \(scheme, host and port only\), got "http:\/\/st\.home\.arpa:8000\/chat"\. Write each origin as scheme:\/\/host:port/,
    ],
    [
      'a port out of range',
      'store: { embedded: { port: 70000 } }',
      /^store\.embedded\.port: expected an integer from 1 to 65535, got 70000\. Set/,
    ],
    [
      'a non-http Qdrant URL',
      'store: { qdrant: { url: "qdrant:6333" } }',
      /^store\.qdrant\.url: expected an http:\/\/ or https:\/\/ URL, got "qdrant:6333"\. Set the Qdrant URL/,
    ],
    [
      'two stores',
      'store: { embedded: {path: x}, qdrant: { url: "http://q" } }',
      /^store: both embedded and qdrant are set\. Keep only/,
    ],
    [
      'an unknown provider',
      'embedding: { provider: cohere }',
      /^embedding\.provider: expected one of openai-compatible \| openai \| openrouter \| offline \| distilled \| hashing, got "cohere"\. Pick/,
    ],
    [
      'openai-compatible without a URL',
      'embedding: { provider: openai-compatible, model: m }',
      /^embedding\.baseUrl: is required for provider openai-compatible\. Set the API root/,
    ],
    [
      'a client option under offline',
      'embedding: { provider: offline, batchSize: 8 }',
      /^embedding\.batchSize: provider offline takes only workers\. Remove batchSize/,
    ],
    [
      'offline workers under another provider',
      'embedding: { provider: hashing, workers: 2 }',
      /^embedding\.workers: provider hashing takes only dimensions\. Remove workers/,
    ],
    [
      'zero offline workers',
      'embedding: { provider: offline, workers: 0 }',
      /^embedding\.workers: .*Set how many offline model workers to run/,
    ],
    [
      'openai without a key',
      'embedding: { provider: openai }',
      /^embedding\.apiKey: is required for provider openai\. Set embedding\.apiKey, or the MEMORY_POOL_EMBEDDING_API_KEY or OPENAI_API_KEY/,
    ],
    [
      'a bot without selfSpeaker',
      'bots: { m: { collection: mem_m } }',
      /^bots\.m\.selfSpeaker: is required: a non-empty string\. Set it to the name the agent speaks as/,
    ],
    [
      'minChars above maxChars',
      `${BOT}    chunk: { minChars: 2000 }`,
      /^bots\.m\.chunk\.minChars: minChars \(2000\) is larger than maxChars \(1500\)\. Lower minChars or raise maxChars/,
    ],
    [
      'a score threshold above 1',
      `${BOT}    retrieve: { scoreThreshold: 30 }`,
      /^bots\.m\.retrieve\.scoreThreshold: expected a number from 0 to 1, got 30\. Set a similarity/,
    ],
    [
      'an unknown recall scope',
      `${BOT}    retrieve: { scope: server }`,
      /^bots\.m\.retrieve\.scope: expected one of global \| guild \| channel \| dm-private, got "server"/,
    ],
    [
      'a selfSpeaker that sanitizes to nothing',
      'bots: { alisa: { selfSpeaker: Алиса } }',
      /^bots\.alisa\.collection: selfSpeaker "Алиса" gives the unusable default collection "mem_".*Set bots\.alisa\.collection/,
    ],
    [
      "a selfSpeaker that sanitizes to nothing under the chosen fork's rule",
      'bots: { alisa: { selfSpeaker: Алиса, collectionNaming: starrysky180111 } }',
      /^bots\.alisa\.collection: selfSpeaker "Алиса" gives the unusable default collection "mem_" \(only Latin letters, digits, CJK ideographs and kana survive the starrysky180111 sanitizing\)/,
    ],
    [
      'an unknown collection naming rule',
      `${BOT}    collectionNaming: mine`,
      /^bots\.m\.collectionNaming: expected one of upstream \| starrysky180111 \| qqpf4zrrwp-blip, got "mine"/,
    ],
    [
      'a collection name ending in __parts (where memory-pool keeps parts indexes)',
      `${BOT}    collection: notes__parts`,
      /^bots\.m\.collection: a name ending in `__parts` is where memory-pool keeps a collection's parts index/,
    ],
    [
      'a collection name with a space',
      `${BOT}    collection: "my memories"`,
      /^bots\.m\.collection: use 1 to 255 characters without spaces/,
    ],
    [
      'a bot name with spaces',
      'bots: { "my bot": { selfSpeaker: M } }',
      /^bots\.my bot: bot names use only letters, digits/,
    ],
    [
      'a time zone Intl does not know',
      `${BOT}    timezone: Europe/Atlantis\n`,
      /^bots\.m\.timezone: is not an IANA time zone\. Set one such as Europe\/Paris/,
    ],
    ['an empty bots section', 'bots: {}', /^bots: no bots are configured\. Add one under bots:/],
    [
      'a key without bots',
      `${BOT}apiKeys: [{ name: a, key: 0123456789abcdef }]`,
      /^apiKeys\[0\]\.bots: expected a list of names or '\*', got nothing\. Use a list of bot names/,
    ],
    [
      'an unknown scope',
      `${BOT}apiKeys: [{ name: a, key: 0123456789abcdef, bots: '*', scopes: [write] }]`,
      /^apiKeys\[0\]\.scopes\[0\]: expected one of save \| retrieve \| forget \| admin, got "write"/,
    ],
    [
      'key and keyEnv together',
      `${BOT}apiKeys: [{ name: a, key: 0123456789abcdef, keyEnv: K, bots: '*' }]`,
      /^apiKeys\[0\]\.keyEnv: both key and keyEnv are set\. Keep only one/,
    ],
    [
      'a source outside sources',
      `${BOT}apiKeys: [{ name: a, key: 0123456789abcdef, bots: '*', sources: [discord], source: hermes }]`,
      /^apiKeys\[0\]\.source: "hermes" is not in this key's sources\. Add it/,
    ],
  ];
  for (const [what, yaml, expected] of cases) {
    test(`${what} is refused, naming the key and the fix`, () => {
      const problems = problemsFor(yaml);
      assert.ok(
        problems.some((problem) => expected.test(problem)),
        `no problem matched ${expected}:\n${problems.join('\n')}`,
      );
    });
  }

  test('an unknown key is an error listing the allowed keys, with a suggestion for a near miss', () => {
    const problems = problemsFor(`${BOT}    chunk: { maxChar: 1400 }\nlisten: { address: 0.0.0.0 }`);
    assert.ok(
      problems.includes(
        'bots.m.chunk.maxChar: unknown key. Did you mean "maxChars"? Allowed keys here: minChars, maxChars, idleMs, maxGapMs.',
      ),
    );
    assert.ok(
      problems.includes(
        'listen.address: unknown key. Remove it or check its spelling Allowed keys here: host, port.',
      ),
    );
  });

  test('every problem in the file is reported in one error', () => {
    const yaml =
      'listen: { port: 0 }\nlimits: { maxTextChars: -1 }\nembedding: { provider: hashing, model: x }\n';
    const paths = problemsFor(yaml).map((problem) => problem.slice(0, problem.indexOf(':')));
    assert.deepEqual(paths.sort(), ['embedding.model', 'limits.maxTextChars', 'listen.port']);
  });

  test('a secret is never echoed in its error', () => {
    const problems = problemsFor(`${BOT}apiKeys: [{ name: a, key: hunter2, bots: '*' }]`);
    assert.match(
      problems.join('\n'),
      /apiKeys\[0\]\.key: is 7 characters long, at least 16 are needed\. Use a long random string/,
    );
    assert.doesNotMatch(problems.join('\n'), /hunter2/);
  });
});

describe('config defaults', () => {
  test('the openai preset fills URL, model and size; another model gets no default size', () => {
    assert.deepEqual(load('embedding: { provider: openai, apiKey: sk-1 }').embedding, {
      provider: 'openai-compatible',
      baseUrl: 'https://api.openai.com/v1',
      model: 'text-embedding-3-large',
      apiKey: 'sk-1',
      dimensions: 3072,
      maxInputTokens: 8191,
      batchSize: 64,
      concurrency: 4,
      timeoutMs: 15_000,
      maxRetries: 5,
    });
    const small = load(
      'embedding: { provider: openai, apiKey: sk-1, model: text-embedding-3-small }',
    ).embedding;
    assert.equal('dimensions' in small, false);
  });

  test("the input window is OpenAI's 8191 tokens for its models, 512 for others unless set", () => {
    const windowOf = (yaml: string) => {
      const embedding = load(yaml).embedding;
      return embedding.provider === 'openai-compatible' ? embedding.maxInputTokens : undefined;
    };
    const ollama =
      'provider: openai-compatible, baseUrl: "http://127.0.0.1:11434/v1", model: nomic-embed-text';
    assert.equal(windowOf(`embedding: { ${ollama} }`), 512);
    assert.equal(windowOf(`embedding: { ${ollama}, maxInputTokens: 2048 }`), 2048);
    assert.equal(
      windowOf('embedding: { provider: openrouter, model: openai/text-embedding-3-small, apiKey: or-1 }'),
      8191,
    );
    assert.ok(
      problemsFor(`embedding: { ${ollama}, maxInputTokens: 3 }`).some((p) =>
        p.startsWith('embedding.maxInputTokens:'),
      ),
    );
    assert.ok(
      problemsFor('embedding: { provider: offline, maxInputTokens: 512 }').some((p) =>
        p.startsWith('embedding.maxInputTokens:'),
      ),
    );
  });

  test('the openrouter preset fills its URL and requires a model', () => {
    const embedding = load(
      'embedding: { provider: openrouter, model: openai/text-embedding-3-large, apiKey: or-1 }',
    ).embedding;
    assert.equal(
      embedding.provider === 'openai-compatible' && embedding.baseUrl,
      'https://openrouter.ai/api/v1',
    );
    assert.ok(
      problemsFor('embedding: { provider: openrouter, apiKey: or-1 }').some((p) =>
        p.startsWith('embedding.model: is required'),
      ),
    );
  });

  test('hashing defaults to 256 dimensions; a key with no value counts as unset', () => {
    assert.deepEqual(load('embedding: { provider: hashing }').embedding, {
      provider: 'hashing',
      dimensions: 256,
    });
    assert.equal(load('store:\n  embedded:\n').store.kind, 'embedded');
  });

  test('offline takes a worker count; without one the embedder sizes its pool to the machine', () => {
    assert.deepEqual(load('embedding: { provider: offline, workers: 2 }').embedding, {
      provider: 'offline',
      workers: 2,
    });
    assert.deepEqual(load('embedding: { provider: offline }').embedding, { provider: 'offline' });
  });

  test('distilled takes no other key: its table is fixed', () => {
    assert.deepEqual(load('embedding: { provider: distilled }').embedding, { provider: 'distilled' });
    assert.ok(
      problemsFor('embedding: { provider: distilled, workers: 2 }').some((p) =>
        /^embedding\.workers: provider distilled takes no other keys\. Remove workers/.test(p),
      ),
    );
  });

  test("a bot gets st-qdrant-memory's collection name and the documented defaults", () => {
    const bot = load('bots: { doc: { selfSpeaker: "Dr. Smith" } }').bots.doc!;
    assert.equal(bot.collection, 'mem_dr_smith');
    assert.equal(bot.defaultSource, 'api');
    assert.deepEqual(bot.chunk, { minChars: 1200, maxChars: 1500, idleMs: 30_000, maxGapMs: 1_800_000 });
    assert.equal('collectionNaming' in bot, false); // it only chose the name
  });

  test("collectionNaming picks the fork's rule for the default collection; an explicit collection may be Unicode", () => {
    const { bots } = load(
      'bots:\n' +
        '  miku: { selfSpeaker: 初音ミク, collectionNaming: starrysky180111 }\n' +
        '  alisa: { selfSpeaker: Алиса Смит, collectionNaming: qqpf4zrrwp-blip }\n' +
        '  olga: { selfSpeaker: Ольга, collection: mem_ольга }\n' +
        '  sera: { selfSpeaker: Seraphina, stChatId: "Seraphina - 2025-05-01@12h30m00s" }\n',
    );
    assert.equal(bots.sera!.collection, 'mem_seraphina_seraphina_-_2025-05-01_12h30m00s');
    assert.equal(bots.sera!.stChatId, 'Seraphina - 2025-05-01@12h30m00s');
    assert.equal(bots.miku!.collection, 'mem_初音ミク');
    assert.equal(bots.alisa!.collection, 'mem_Алиса_Смит');
    assert.equal(bots.olga!.collection, 'mem_ольга');
  });

  test('an API key gets sources * and scopes save, retrieve by default', () => {
    const [apiKey] = load(`${BOT}apiKeys: [{ name: a, key: 0123456789abcdef, bots: [m] }]`).apiKeys;
    assert.deepEqual(apiKey, {
      name: 'a',
      key: '0123456789abcdef',
      bots: ['m'],
      sources: '*',
      scopes: ['save', 'retrieve'],
    });
  });
});

test('store.embedded.corsOrigins are kept as origins, the way browsers send them', () => {
  const config = load(
    'store: { embedded: { corsOrigins: ["HTTP://St.Home.Arpa:8000/", "https://x.example:443"] } }',
  );
  assert.equal(config.store.kind, 'embedded');
  assert.deepEqual(config.store.kind === 'embedded' && config.store.corsOrigins, [
    'http://st.home.arpa:8000',
    'https://x.example',
  ]);
});
