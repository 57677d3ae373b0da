import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  defaultCollectionName,
  isUsableCollectionName,
  perChatCollectionName,
  sanitizeCollectionName,
} from './st-collection-name.js';

describe('sanitizeCollectionName', () => {
  test('matches st-qdrant-memory on the names its docs and users hit', () => {
    assert.equal(sanitizeCollectionName('Dr. Smith'), 'dr_smith');
    assert.equal(sanitizeCollectionName('  Seraphina  '), 'seraphina');
    assert.equal(sanitizeCollectionName('Mr. -- Robot!!'), 'mr_--_robot');
    assert.equal(sanitizeCollectionName('__Kai__'), 'kai');
    assert.equal(sanitizeCollectionName('Zoë 2'), 'zo_2');
    assert.equal(sanitizeCollectionName('Алиса'), '');
  });

  test("starrysky180111's fork keeps CJK ideographs and kana, lowercases the rest like upstream", () => {
    assert.equal(sanitizeCollectionName('初音ミク', 'starrysky180111'), '初音ミク');
    assert.equal(sanitizeCollectionName('さくら Sakura!', 'starrysky180111'), 'さくら_sakura');
    // Extension A (U+3400) stays; a compatibility ideograph (U+F900) does not, though its tokenizer keeps it.
    assert.equal(sanitizeCollectionName('㐀Ext-A \uF900', 'starrysky180111'), '㐀ext-a');
    assert.equal(sanitizeCollectionName('김민지', 'starrysky180111'), ''); // hangul is not kept in names
    assert.equal(sanitizeCollectionName('Алиса', 'starrysky180111'), '');
    assert.equal(sanitizeCollectionName('Dr. Smith', 'starrysky180111'), 'dr_smith');
  });

  test("qqpf4zrrwp-blip's fork keeps case and every script, replacing only what Qdrant forbids and whitespace", () => {
    assert.equal(sanitizeCollectionName('Алиса', 'qqpf4zrrwp-blip'), 'Алиса');
    assert.equal(sanitizeCollectionName('Dr. Smith', 'qqpf4zrrwp-blip'), 'Dr._Smith');
    assert.equal(sanitizeCollectionName('  小雪 <AI>: "v2" ', 'qqpf4zrrwp-blip'), '小雪_AI_v2');
    assert.equal(sanitizeCollectionName('a\u0000b\u001Fc\u0001d', 'qqpf4zrrwp-blip'), 'a_b_c\u0001d');
    assert.equal(sanitizeCollectionName('???', 'qqpf4zrrwp-blip'), 'default');
    assert.equal(sanitizeCollectionName('x'.repeat(300), 'qqpf4zrrwp-blip').length, 255 - 'mem_'.length);
  });
});

describe('defaultCollectionName', () => {
  test('is mem_ plus the agent name sanitized by the chosen rule', () => {
    assert.equal(defaultCollectionName('Dr. Smith'), 'mem_dr_smith');
    assert.equal(defaultCollectionName('Алиса'), 'mem_');
    assert.equal(defaultCollectionName('初音ミク', 'starrysky180111'), 'mem_初音ミク');
    assert.equal(defaultCollectionName('Алиса', 'qqpf4zrrwp-blip'), 'mem_Алиса');
    assert.equal([...defaultCollectionName('й'.repeat(400), 'qqpf4zrrwp-blip')].length, 255);
  });
});

describe('perChatCollectionName', () => {
  test("is Shadota's mem_<character>_<chat id>, both sanitized upstream's way, or mem_<character> without a chat", () => {
    assert.equal(
      perChatCollectionName('Seraphina', 'Seraphina - 2025-05-01@12h30m00s'),
      'mem_seraphina_seraphina_-_2025-05-01_12h30m00s',
    );
    assert.equal(perChatCollectionName('Dr. Smith', '!!!'), 'mem_dr_smith');
  });
});

describe('isUsableCollectionName', () => {
  test('accepts st-style, fork-style and explicit names', () => {
    assert.equal(isUsableCollectionName('mem_dr_smith'), true);
    assert.equal(isUsableCollectionName('Alisa-Memories'), true);
    assert.equal(isUsableCollectionName('mem_初音ミク'), true);
    assert.equal(isUsableCollectionName('mem_Алиса'), true);
  });

  test('refuses a name that sanitized to nothing, is empty, too long, has whitespace or what Qdrant forbids', () => {
    assert.equal(isUsableCollectionName(defaultCollectionName('Алиса')), false);
    assert.equal(isUsableCollectionName(''), false);
    assert.equal(isUsableCollectionName('m'.repeat(256)), false);
    assert.equal(isUsableCollectionName('my memories'), false);
    assert.equal(isUsableCollectionName('a/b'), false);
    assert.equal(isUsableCollectionName('a:b'), false);
  });
});
