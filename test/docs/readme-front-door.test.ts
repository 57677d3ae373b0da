/**
 * @module The README stays a front door: a few screens long, the two commands for a fresh machine on its first
 * screen, and the test command the one CI runs, so what a newcomer types is what is checked.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from './read-markdown.js';

const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

test('README.md is at most ~250 lines: how-to and history go to docs/', () => {
  const lines = readme.split('\n').length;
  assert.ok(lines <= 250, `README.md has ${lines} lines; move sections into a page under docs/`);
});

test("the README's first screen gives the start and test commands, and .ci/run runs that test command", () => {
  const firstScreen = readme.split('\n').slice(0, 40).join('\n');
  assert.match(firstScreen, /^npm ci && npm start\b/m);
  const testCommand = /^npm ci && (npm test)\b/m.exec(firstScreen)?.[1];
  assert.equal(testCommand, 'npm test', 'the first screen must show `npm ci && npm test`');
  const ci = readFileSync(join(REPO_ROOT, '.ci/run'), 'utf8');
  assert.match(ci, /^npm ci\b/m, '.ci/run installs as the README says');
  assert.match(ci, /^(?:[A-Z_]+=\S+ )*npm test$/m, `.ci/run must run the README's \`${testCommand}\``);
});
