import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { createLogger, defaultLogFormat } from './logger.js';

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

describe('logs', () => {
  test('a terminal gets readable lines, a pipe gets JSON', () => {
    assert.equal(defaultLogFormat({ isTTY: true }), 'pretty');
    assert.equal(defaultLogFormat({ isTTY: false }), 'json');
    assert.equal(defaultLogFormat({}), 'json');
  });

  test('pretty lines carry the level and message, not a JSON object', () => {
    const out = capture();
    const logger = createLogger({ level: 'info', format: 'pretty', destination: out.stream });
    logger.info({ bot: 'mythos' }, 'chunk stored');
    const line = out.text();
    assert.match(line, /INFO/);
    assert.match(line, /chunk stored/);
    assert.match(line, /bot: "mythos"/);
    assert.throws(() => JSON.parse(line));
  });

  test('JSON lines parse, and keys are redacted in both formats', () => {
    const json = capture();
    createLogger({ level: 'info', format: 'json', destination: json.stream }).info(
      {
        apiKey: 'sk-secret',
        headers: { authorization: 'Bearer sk-secret' },
        discord: { token: 'sk-secret' },
      },
      'configured',
    );
    const entry = JSON.parse(json.text()) as Record<string, unknown>;
    assert.equal(entry.msg, 'configured');
    assert.doesNotMatch(json.text(), /sk-secret/);

    const pretty = capture();
    createLogger({ level: 'info', format: 'pretty', destination: pretty.stream }).info(
      { apiKey: 'sk-secret' },
      'configured',
    );
    assert.match(pretty.text(), /configured/);
    assert.doesNotMatch(pretty.text(), /sk-secret/);
  });

  test('an unset secret shows as unset, never as [redacted]; a set one is redacted', () => {
    const json = capture();
    createLogger({ level: 'info', format: 'json', destination: json.stream }).info(
      { config: { store: { apiKey: null }, embedding: { apiKey: 'sk-secret' } } },
      'configured',
    );
    const entry = JSON.parse(json.text()) as { config: Record<string, { apiKey: unknown }> };
    assert.equal(entry.config.store?.apiKey, null);
    assert.equal(entry.config.embedding?.apiKey, '[redacted]');
  });

  test('an empty or blank LOG_LEVEL counts as unset (the default level), like every variable', () => {
    for (const LOG_LEVEL of ['', '  ']) {
      const out = capture();
      const logger = createLogger({ env: { LOG_LEVEL }, format: 'json', destination: out.stream });
      assert.equal(logger.level, 'info', JSON.stringify(LOG_LEVEL));
    }
    assert.equal(createLogger({ env: { LOG_LEVEL: 'warn' }, format: 'json' }).level, 'warn');
    assert.equal(createLogger({ env: { NODE_TEST_CONTEXT: 'child' }, format: 'json' }).level, 'silent');
  });
});
