import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  defaultCollectionName,
  isUsableCollectionName,
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
});

describe('defaultCollectionName', () => {
  test('is mem_ plus the sanitised agent name', () => {
    assert.equal(defaultCollectionName('Dr. Smith'), 'mem_dr_smith');
    assert.equal(defaultCollectionName('Алиса'), 'mem_');
  });
});

describe('isUsableCollectionName', () => {
  test('accepts st-style and explicit names', () => {
    assert.equal(isUsableCollectionName('mem_dr_smith'), true);
    assert.equal(isUsableCollectionName('Alisa-Memories'), true);
  });

  test('refuses a name that sanitised to nothing, is empty, too long or needs URL-encoding', () => {
    assert.equal(isUsableCollectionName(defaultCollectionName('Алиса')), false);
    assert.equal(isUsableCollectionName(''), false);
    assert.equal(isUsableCollectionName('m'.repeat(256)), false);
    assert.equal(isUsableCollectionName('my memories'), false);
    assert.equal(isUsableCollectionName('a/b'), false);
  });
});
