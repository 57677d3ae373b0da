/**
 * @module The Hermes plugin's documented pip install is the one CI proves offline: the README's command
 * carries the flags plugins/hermes/tests/install_and_test.sh installs with (a plain `pip install` fails offline).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

test("the plugin README's pip command builds without isolation, as install_and_test.sh does in CI", () => {
  const script = read('plugins/hermes/tests/install_and_test.sh');
  const scripted = script.split('\n').find((line) => /\bpip" install\b/.test(line));
  assert.ok(scripted, 'install_and_test.sh runs pip install');
  assert.match(scripted, /--no-index/);
  assert.match(scripted, /--no-build-isolation/);
  const documented = [...read('plugins/hermes/README.md').matchAll(/^\s*\S*pip install .*plugins\/hermes$/gm)];
  assert.ok(documented.length > 0, 'the README shows a pip install of plugins/hermes');
  for (const [line] of documented) {
    assert.match(line, /--no-build-isolation/, `${line.trim()}: without it pip downloads setuptools (fails offline)`);
  }
  assert.match(read('plugins/hermes/README.md'), /Offline, add `--no-index`/);
});
