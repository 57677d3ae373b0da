/** @module Every relative link in README.md and docs/ resolves inside the repository, anchors included. */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT, findLinks, listAnchors, listDocFiles, toRepoPath } from './read-markdown.js';

/** Every broken link, as `file:line target (why)`. */
function findBrokenLinks(): string[] {
  const broken: string[] = [];
  for (const file of listDocFiles()) {
    for (const { target, line } of findLinks(file)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto: leave the repository
      const [path = '', anchor] = target.split('#');
      const resolved = path === '' ? file : toRepoPath(join(REPO_ROOT, dirname(file), decodeURI(path)));
      const where = `${file}:${line} ${target}`;
      if (resolved === undefined) broken.push(`${where} (outside the repository)`);
      else if (!existsSync(join(REPO_ROOT, resolved))) broken.push(`${where} (no such file)`);
      else if (anchor && resolved.endsWith('.md') && !statSync(join(REPO_ROOT, resolved)).isDirectory()) {
        if (!listAnchors(resolved).has(anchor)) broken.push(`${where} (no heading with that anchor)`);
      }
    }
  }
  return broken;
}

test('every relative link in README.md and docs/ resolves inside the repository', () => {
  assert.deepEqual(findBrokenLinks(), [], 'fix or remove these links');
});

test('the link check sees links: README.md links into docs/', () => {
  const targets = findLinks('README.md').map((link) => link.target);
  assert.ok(targets.some((target) => target.startsWith('docs/')), 'README.md should link its docs map');
});

test('every docs page the code names (in messages and comments) exists', () => {
  const named = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|tsx|mjs|py|yaml)$/.test(entry.name))
        for (const match of readFileSync(join(REPO_ROOT, path), 'utf8').matchAll(/\bdocs\/[\w./-]+\.md\b/g))
          named.add(`${match[0]} (${path})`);
    }
  };
  for (const dir of ['src', 'ui', 'bench', 'scripts', 'plugins']) walk(dir);
  assert.ok(named.size >= 10, `found only ${named.size} mentions`);
  const missing = [...named].filter((mention) => !existsSync(join(REPO_ROOT, mention.split(' ')[0]!)));
  assert.deepEqual(missing, [], 'rename these mentions to the page that exists');
});
