import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { z } from 'zod';
import { configSchema } from './config-schema.js';

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
}

/** Every leaf key of the schema, spelt as the docs table spells it: `apiKeys[].key`, `bots.<name>.chunk.idleMs`. */
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

test('docs/configuration.md has a row for every config key', () => {
  assert.ok(keys.length >= 37, `walked only ${keys.length} keys`);
  const docs = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
  const missing = keys.filter((key) => !docs.includes(`| \`${key}\` |`));
  assert.deepEqual(missing, [], 'add these keys to the table in docs/configuration.md');
});

test('memory-pool.example.yaml shows every config key', () => {
  const example = readFileSync(new URL('../../memory-pool.example.yaml', import.meta.url), 'utf8');
  const missing = keys.filter(
    (key) => !new RegExp(`\\b${key.split('.').at(-1)!.replace('[]', '')}:`).test(example),
  );
  assert.deepEqual(missing, [], 'add these keys (at least commented) to memory-pool.example.yaml');
});
