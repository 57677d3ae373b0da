import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConfigError } from '../../../errors/memory-pool-error.js';
import { buildCompanionPrompt } from './build-companion-prompt.js';
import { readCharacterCard } from './read-character-card.js';
import { splitReply } from './split-reply.js';
import { cardPng } from './test-support/card-png.js';

const dir = mkdtempSync(join(tmpdir(), 'memory-pool-card-'));
const write = (name: string, bytes: Buffer | string) => {
  writeFileSync(join(dir, name), bytes);
  return join(dir, name);
};

test('a PNG card: V3 (ccv3) is preferred over V2 (chara); a JSON card and V1 flat fields read too', () => {
  const v2 = {
    spec: 'chara_card_v2',
    data: { name: 'Mythos', description: 'v2 description', personality: 'warm' },
  };
  const v3 = {
    spec: 'chara_card_v3',
    data: { name: 'Mythos', description: 'v3 description', system_prompt: 'Stay kind.' },
  };
  assert.equal(readCharacterCard(write('v2.png', cardPng({ chara: v2 }))).description, 'v2 description');
  const both = readCharacterCard(write('both.png', cardPng({ chara: v2, ccv3: v3 })));
  assert.equal(both.description, 'v3 description');
  assert.equal(both.systemPrompt, 'Stay kind.');
  assert.equal(readCharacterCard(write('card.json', JSON.stringify(v2))).personality, 'warm');
  assert.equal(
    readCharacterCard(write('v1.json', JSON.stringify({ name: 'Old', description: 'flat' }))).description,
    'flat',
  );
});

test('a file that is not a card is a config error naming the key and the fix', () => {
  assert.throws(
    () => readCharacterCard(write('plain.png', cardPng({}))),
    (error: unknown) =>
      error instanceof ConfigError &&
      /discord\.companion\.card: .*no ccv3 or chara.*Export the card/.test(error.message),
  );
  assert.throws(() => readCharacterCard(join(dir, 'missing.png')), /cannot read/);
});

test('replies are split at 2,000 characters, at a line or word break, losing nothing', () => {
  const paragraph = 'word '.repeat(300).trim(); // 1,499 characters
  const text = `${paragraph}\n\n${paragraph}\n${'x'.repeat(2500)}`;
  const parts = splitReply(text);
  assert.ok(parts.every((part) => part.length <= 2000));
  assert.equal(parts[0], paragraph, 'cut at the paragraph break');
  assert.equal(parts.join('').replace(/\s/g, ''), text.replace(/\s/g, ''));
  assert.deepEqual(splitReply('short'), ['short']);
});

test('the prompt: persona, then the recalled block, then the turns with their speakers', () => {
  const messages = buildCompanionPrompt({
    name: 'Mythos',
    card: {
      name: 'Mythos',
      description: '{{char}} is a lighthouse keeper.',
      personality: 'calm',
      scenario: '',
      systemPrompt: '',
      exampleMessages: '',
      postHistoryInstructions: '',
    },
    recalled: '[Past chat memories]\nHelen: my cat is grey',
    recent: [
      { self: false, speaker: 'Helen', text: 'hello' },
      { self: true, speaker: 'Mythos', text: 'hi Helen' },
    ],
  });
  assert.equal(messages[0]?.role, 'system');
  assert.match(
    messages[0]!.content,
    /Mythos is a lighthouse keeper\.[\s\S]*Personality: calm[\s\S]*\[Past chat memories\]\nHelen: my cat is grey/,
  );
  assert.deepEqual(messages.slice(1), [
    { role: 'user', content: 'Helen: hello' },
    { role: 'assistant', content: 'hi Helen' },
  ]);
});
