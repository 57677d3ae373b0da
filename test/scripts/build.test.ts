/** @module scripts/build.mjs: `npm ci` leaves a build, and a build with nothing changed redoes nothing. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
// @ts-expect-error: a plain .mjs script without type declarations
import { isStale } from '../../scripts/build.mjs';

const stale = isStale as (output: string, sourceDirs: string[]) => boolean;

test('the viewer bundle is rebuilt only when missing or older than a file under its sources', () => {
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-build-'));
  try {
    const ui = join(dir, 'ui', 'src');
    mkdirSync(ui, { recursive: true });
    const bundle = join(dir, 'app.js');
    writeFileSync(join(ui, 'main.tsx'), 'x');
    assert.equal(stale(bundle, [join(dir, 'ui')]), true, 'no bundle yet');
    writeFileSync(bundle, 'built');
    utimesSync(join(ui, 'main.tsx'), new Date(1_000_000), new Date(1_000_000));
    assert.equal(stale(bundle, [join(dir, 'ui'), join(dir, 'missing')]), false, 'nothing changed since');
    writeFileSync(join(ui, 'main.tsx'), 'y');
    utimesSync(bundle, new Date(1_000_000), new Date(1_000_000));
    assert.equal(stale(bundle, [join(dir, 'ui')]), true, 'a source changed after the bundle');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('npm ci builds (prepare), npm start builds incrementally, neither through a nested npm run', () => {
  const { scripts } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  for (const name of ['build', 'prepare', 'start']) {
    assert.match(scripts[name], /^node scripts\/build\.mjs/, `${name}: ${scripts[name]}`);
    assert.doesNotMatch(scripts[name], /npm run/, `${name} starts a second npm, which prints its warnings again`);
  }
  const build = JSON.parse(readFileSync(new URL('../../tsconfig.build.json', import.meta.url), 'utf8'));
  assert.equal(build.compilerOptions.incremental, true, 'tsc rebuilds only what changed');
});
