/**
 * @module The counts in what the CLI and the data tools say: "1 message", never "1 messages". A count written
 * straight before a plural noun is only right when it is not 1, so each goes through countNoun.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { countNoun } from '../runtime/count-noun.js';

const SRC = fileURLToPath(new URL('..', import.meta.url));
/** The nouns the commands count. */
const NOUNS = 'messages|points|chunks|rows|parts|passes|bots|checks|keys|files|collections|tables|memories';
/** `${count} messages`, `${n} journal rows`, `${n} imported messages`: a count then (a word and) a plural. */
const RAW_COUNT = new RegExp(String.raw`\$\{[^{}]+\} (?:(?!a |an |the )[a-z]+ )?(?:${NOUNS})\b`, 'g');

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : sourcesUnder(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

test('countNoun writes 1 in the singular and every other count in the plural', () => {
  assert.equal(countNoun(1, 'message'), '1 message');
  assert.equal(countNoun(0, 'message'), '0 messages');
  assert.equal(countNoun(17, 'journal row'), '17 journal rows');
  assert.equal(countNoun(1, 'pass', 'passes'), '1 pass');
  assert.equal(countNoun(2, 'pass', 'passes'), '2 passes');
});

test('no message of the CLI or the data tools writes a count straight before a plural noun', () => {
  const found = ['cli', 'maintenance'].flatMap((folder) =>
    sourcesUnder(join(SRC, folder)).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(RAW_COUNT)].map(
        (match) => `${file.slice(SRC.length)}: ${match[0]}`,
      ),
    ),
  );
  assert.deepEqual(found, [], 'say it with countNoun (src/runtime/count-noun.ts), so 1 reads "1 message"');
});
