/**
 * @module The defaults the config schema applies, read by running it: each key's value in the configuration
 * the schema makes of small probe files (the empty file, and one per optional section with only what that
 * section requires). What the schema does is the documentation's source, so the two cannot disagree.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { configSchema } from '../../src/config/config-schema.js';

/** Probe files: each fills only required keys, so every other value the schema returns is its default. */
const PROBES: readonly Record<string, unknown>[] = [
  {},
  { embedding: { provider: 'openai-compatible', baseUrl: 'http://probe.invalid/v1', model: 'probe' } },
  { apiKeys: [{ name: 'probe', key: 'probe-key-0123456789', bots: '*' }] },
  {
    discord: {
      token: 'probe',
      companion: { baseUrl: 'http://probe.invalid/v1', model: 'probe', systemPrompt: 'p' },
    },
  },
];

/**
 * Paths the probes fill themselves, or whose value the schema works out from other keys (a bot's collection from
 * its name, a model's input window from the model): their value here is not a default, their JSDoc says it.
 */
const PROBED = new Set([
  'bots.<name>.selfSpeaker',
  'bots.<name>.collection',
  'embedding.maxInputTokens',
  'embedding.provider',
  'embedding.baseUrl',
  'embedding.model',
  'apiKeys[].name',
  'apiKeys[].key',
  'apiKeys[].bots',
  'discord.token',
  'discord.companion.baseUrl',
  'discord.companion.model',
  'discord.companion.systemPrompt',
]);

/** The default of each documented path that has one the schema applies by itself (as YAML would write it). */
export function readSchemaDefaults(paths: readonly string[]): Map<string, unknown> {
  const parsed = PROBES.map((probe) => configSchema.parse(probe) as Record<string, unknown>);
  const json = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as JsonNode;
  const defaults = new Map<string, unknown>();
  for (const path of paths) {
    if (PROBED.has(path)) continue;
    const declared = findJsonNode(json, path.split('.'))?.default;
    if (declared !== undefined) {
      defaults.set(path, declared);
      continue;
    }
    for (const config of parsed) {
      const value = readPath(config, path);
      if (value !== undefined) {
        defaults.set(path, value);
        break;
      }
    }
  }
  return defaults;
}

interface JsonNode {
  default?: unknown;
  properties?: Record<string, JsonNode>;
  additionalProperties?: JsonNode | boolean;
  items?: JsonNode;
  anyOf?: JsonNode[];
}

/** The JSON Schema node of a documented path (`.default()` values show there, before any transform). */
function findJsonNode(node: JsonNode | undefined, steps: string[]): JsonNode | undefined {
  if (node === undefined || steps.length === 0) return node;
  for (const option of node.anyOf ?? []) {
    const found = findJsonNode(option, steps);
    if (found !== undefined) return found;
  }
  const [step = '', ...rest] = steps;
  const key = step.replace(/\[\]$/, '');
  let child =
    key === '<name>'
      ? typeof node.additionalProperties === 'object'
        ? node.additionalProperties
        : undefined
      : node.properties?.[key];
  if (child !== undefined && step.endsWith('[]'))
    child = child.items ?? child.anyOf?.find((o) => o.items)?.items;
  return findJsonNode(child, rest);
}

/** A value at a documented path; the store's section is flattened by the schema (`store.embedded.port` → `store.port`). */
function readPath(config: Record<string, unknown>, path: string): unknown {
  const store = config.store as { kind?: string } | undefined;
  const steps = path
    .replace(/^store\.(embedded|qdrant)\./, (_, kind: string) =>
      store?.kind === kind ? 'store.' : 'store.absent.',
    )
    .split('.');
  let node: unknown = config;
  for (const step of steps) {
    if (node === undefined || node === null || typeof node !== 'object') return undefined;
    const key = step.replace(/\[\]$/, '');
    node = key === '<name>' ? Object.values(node)[0] : (node as Record<string, unknown>)[key];
    if (step.endsWith('[]')) node = Array.isArray(node) ? node[0] : undefined;
  }
  return node;
}

/** Each environment variable the config reads, with the key paths it sets (from apply-env-overrides.ts). */
export function readEnvVariables(source: string): Map<string, string[]> {
  const text = readFileSync(source, 'utf8');
  const variables = new Map<string, string[]>();
  for (const match of text.matchAll(/set\([^;]*?['`]([a-zA-Z.${}]+)['`],\s*'([A-Z][A-Z0-9_]+)'/g)) {
    const [, path = '', name = ''] = match;
    // `store.${kind}.apiKey` in the source: the key of whichever store is in use.
    const placeholder = '$' + '{kind}';
    const paths = path.includes(placeholder)
      ? ['embedded', 'qdrant'].map((kind) => path.replace(placeholder, kind))
      : [path];
    variables.set(name, [
      ...(variables.get(name) ?? []),
      ...paths.filter((p) => !variables.get(name)?.includes(p)),
    ]);
  }
  return variables;
}
