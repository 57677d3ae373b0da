import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { deriveChunkPointId } from './chunk-point-id.js';

const UUID_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('deriveChunkPointId', () => {
  test('is a lowercase version-5-style UUID', () => {
    assert.match(deriveChunkPointId('mem_mythos', 'discord', ['1', '2']), UUID_V5);
  });

  test('is the same for the same chunk, so a retry overwrites its point', () => {
    assert.equal(
      deriveChunkPointId('mem_mythos', 'discord', ['1', '2', '3']),
      deriveChunkPointId('mem_mythos', 'discord', ['1', '2', '3']),
    );
  });

  test('differs for other message ids, order, collection or source', () => {
    const ids = new Set([
      deriveChunkPointId('mem_mythos', 'discord', ['1', '2']),
      deriveChunkPointId('mem_mythos', 'discord', ['1', '3']),
      deriveChunkPointId('mem_mythos', 'discord', ['2', '1']),
      deriveChunkPointId('mem_mythos', 'discord', ['1']),
      deriveChunkPointId('mem_other', 'discord', ['1', '2']),
      deriveChunkPointId('mem_mythos', 'hermes', ['1', '2']),
    ]);
    assert.equal(ids.size, 6);
  });

  test('is the SHA-256 of collection, source and comma-joined ids (newline-separated), with version and variant bits set', () => {
    const hex = createHash('sha256').update('mem_mythos\ndiscord\na,b').digest('hex');
    const id = deriveChunkPointId('mem_mythos', 'discord', ['a', 'b']).replaceAll('-', '');
    assert.equal(id.slice(0, 12), hex.slice(0, 12));
    assert.equal(id.slice(13, 16), hex.slice(13, 16));
    assert.equal(id.slice(17), hex.slice(17, 32));
  });
});
