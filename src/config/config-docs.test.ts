/**
 * @module Holds docs/configuration.md and memory-pool.example.yaml against the schema: the page is what the
 * generator makes of src/config/ (every key, default and environment variable), and the example shows every key,
 * loads, states only true defaults and names only environment variables the config reads.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isMap, parseDocument, type Node } from 'yaml';
import { z } from 'zod';
import { readDeclaredKeys } from '../../scripts/config-docs/read-declared-keys.js';
import { readEnvVariables, readSchemaDefaults } from '../../scripts/config-docs/read-schema-defaults.js';
import { renderConfigurationPage, showDefault } from '../../scripts/config-docs/render-configuration-page.js';
import { configSchema } from './config-schema.js';
import { loadConfig } from './load-config.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
}

/** Every leaf key of the schema as zod sees it, spelt as the docs spell it: `apiKeys[].key`, `bots.<name>.chunk.idleMs`. */
function leafKeys(node: SchemaNode, path: string): string[] {
  const children: string[] = [];
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    const childPath = path === '' ? key : `${path}.${key}`;
    const below = leafKeys(child, childPath);
    children.push(...(below.length === 0 ? [childPath] : below));
  }
  const record = node.additionalProperties;
  if (typeof record === 'object' && record.properties !== undefined)
    children.push(...leafKeys(record, `${path}.<name>`));
  if (node.items !== undefined) children.push(...leafKeys(node.items, `${path}[]`));
  for (const option of node.anyOf ?? []) children.push(...leafKeys(option, path));
  return [...new Set(children)];
}

const keys = leafKeys(
  z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as SchemaNode,
  '',
);
const envVariables = readEnvVariables(join(ROOT, 'src/config/apply-env-overrides.ts'));

test('docs/configuration.md is what the generator makes of the schema (run scripts/config-docs/generate-config-docs.ts)', () => {
  assert.equal(read('docs/configuration.md'), renderConfigurationPage(ROOT));
});

test('the generated page has a row for every key zod knows, and an env variable table naming each one the config reads', () => {
  assert.ok(keys.length >= 37, `walked only ${keys.length} keys`);
  const declared = new Set(readDeclaredKeys(join(ROOT, 'src/config')).map((key) => key.path));
  assert.deepEqual(
    keys.filter((key) => !declared.has(key)),
    [],
    'the JSDoc reader missed these keys',
  );
  const page = renderConfigurationPage(ROOT);
  assert.deepEqual(
    keys.filter((key) => !page.includes(`| \`${key}\` |`)),
    [],
  );
  assert.ok(envVariables.size >= 9, `found only ${envVariables.size} environment variables`);
  assert.deepEqual(
    [...envVariables.keys()].filter((name) => !page.includes(`| \`${name}\` |`)),
    [],
  );
});

test('memory-pool.example.yaml shows every config key and every environment variable', () => {
  const example = read('memory-pool.example.yaml');
  const missing = keys.filter(
    (key) => !new RegExp(`\\b${key.split('.').at(-1)!.replace('[]', '')}:`).test(example),
  );
  assert.deepEqual(missing, [], 'add these keys (at least commented) to memory-pool.example.yaml');
  assert.deepEqual(
    [...envVariables.keys()].filter((name) => !example.includes(name)),
    [],
  );
});

test('memory-pool.example.yaml names only environment variables the config reads, each beside its own key', () => {
  const example = read('memory-pool.example.yaml');
  const named = [...example.matchAll(/\benv ([A-Z][A-Z0-9_]+)/g)].map((match) => match[1]!);
  assert.ok(named.length >= 6);
  assert.deepEqual(
    named.filter((name) => !envVariables.has(name)),
    [],
    'the config reads no such variable',
  );
  for (const { path, comment } of readExampleLeaves(example)) {
    for (const [, name] of comment.matchAll(/\benv ([A-Z][A-Z0-9_]+)/g))
      assert.ok(
        envVariables.get(name!)?.includes(path),
        `${path}'s comment names ${name}, which sets ${envVariables.get(name!)}`,
      );
  }
});

test('memory-pool.example.yaml loads, and shows the defaults or says which it changes', () => {
  const example = read('memory-pool.example.yaml');
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-example-'));
  writeFileSync(join(dir, 'memory-pool.yaml'), example);
  assert.doesNotThrow(() =>
    loadConfig({
      cwd: dir,
      configPath: join(dir, 'memory-pool.yaml'),
      env: { OPENAI_API_KEY: 'sk-example' },
    }),
  );
  const leaves = readExampleLeaves(example);
  assert.ok(leaves.length >= 25, `read only ${leaves.length} keys`);
  const defaults = readSchemaDefaults(leaves.map((leaf) => leaf.path));
  const wrong: string[] = [];
  for (const { path, value, comment } of leaves) {
    if (!defaults.has(path)) continue;
    const truth = showDefault(defaults.get(path)).replace(/`/g, '');
    const stated = /\bdefault (\S+?)[:;,)]?(?:\s|$)/.exec(comment)?.[1];
    if (stated !== undefined && stated !== truth)
      wrong.push(`${path}: the comment says default ${stated}, the schema ${truth}`);
    if (stated === undefined && showDefault(value).replace(/`/g, '') !== truth)
      wrong.push(`${path}: shows ${JSON.stringify(value)} as if the default, the schema's is ${truth}`);
  }
  assert.deepEqual(wrong, []);
});

/** Each key the example sets (not its commented lines), as a docs path, with its value and its line's comment. */
function readExampleLeaves(text: string): { path: string; value: unknown; comment: string }[] {
  const leaves: { path: string; value: unknown; comment: string }[] = [];
  const walk = (node: Node | null, path: string): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = String((pair.key as { value: unknown }).value);
        const step = path === 'bots' || path === 'bots.<name>.speakerAliases' ? '<name>' : key;
        if (path !== 'bots.<name>.speakerAliases')
          walk(pair.value as Node, path === '' ? step : `${path}.${step}`);
      }
    } else if (node !== null) {
      leaves.push({ path, value: node.toJSON(), comment: (node.comment ?? '').replace(/\s+/g, ' ') });
    }
  };
  walk(parseDocument(text).contents as Node, '');
  return leaves;
}

/**
 * The example's commented-out sections (`# journal:`, `# apiKeys:`, `# discord:`), each switched on alone: the
 * lines from the section's key to the next line that is not part of it, with their `# ` taken off.
 */
function readCommentedSections(text: string): { key: string; yaml: string }[] {
  const lines = text.split('\n');
  const sections: { key: string; yaml: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const key = /^# ([a-zA-Z]+):\s*$/.exec(lines[i]!)?.[1];
    if (key === undefined) continue;
    const body = [lines[i]!.slice(2)];
    while (i + 1 < lines.length && /^# {2,}\S/.test(lines[i + 1]!)) body.push(lines[++i]!.slice(2));
    sections.push({ key, yaml: body.join('\n') });
  }
  return sections;
}

test('each commented-out section of the example loads when switched on, and none calls itself refused', () => {
  // The example once said the Postgres journal was "refused this release" while the code served it (issue 37.10).
  const sections = readCommentedSections(read('memory-pool.example.yaml'));
  assert.deepEqual(
    sections.map((section) => section.key),
    ['journal', 'apiKeys', 'discord'],
  );
  const dir = mkdtempSync(join(tmpdir(), 'memory-pool-example-sections-'));
  const env = {
    OPENAI_API_KEY: 'sk-example',
    DISCORD_MEMORY_KEY: 'discord-key-0123456789',
    MEMORY_POOL_ADMIN_KEY: 'admin-key-0123456789',
    DISCORD_TOKEN: 'token-0123456789',
    OPENROUTER_API_KEY: 'sk-or-example',
  };
  for (const { key, yaml } of sections) {
    assert.doesNotMatch(
      yaml,
      /\b(?:refused|unsupported|not (?:yet )?supported)\b/i,
      `${key}: a claim of refusal`,
    );
    const configPath = join(dir, `${key}.yaml`);
    writeFileSync(configPath, `bots: { mythos: { selfSpeaker: Mythos } }\n${yaml}\n`);
    assert.doesNotThrow(() => loadConfig({ cwd: dir, configPath, env }), key);
  }
});
