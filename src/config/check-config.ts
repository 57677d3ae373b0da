/**
 * @module Rules that span several keys, checked once the schema has passed: the service never listens
 * beyond loopback without API keys, and every API key is distinct and names bots that exist.
 */
import { isLoopbackHost } from '../runtime/is-loopback-host.js';
import type { ConfigProblem } from './config-problems.js';
import type { ParsedConfig } from './config-schema.js';
import { checkDiscordBot } from './discord-schema.js';

/** Every cross-key problem in a schema-valid config. */
export function checkConfig(config: ParsedConfig): ConfigProblem[] {
  return [
    ...checkExposure(config),
    ...checkApiKeys(config),
    ...checkSharedCollections(config),
    ...checkDiscordBot(config.discord, Object.keys(config.bots)),
  ];
}

/**
 * One collection per bot: chunk point ids derive from the collection and message ids, so two bots writing
 * into one collection could overwrite each other's chunks. (Sharing with SillyTavern is by design, and fine.)
 */
function checkSharedCollections(config: ParsedConfig): ConfigProblem[] {
  const owner = new Map<string, string>();
  const problems: ConfigProblem[] = [];
  for (const [name, bot] of Object.entries(config.bots)) {
    const first = owner.get(bot.collection);
    if (first === undefined) owner.set(bot.collection, name);
    else {
      problems.push({
        path: `bots.${name}.collection`,
        message: `"${bot.collection}" is already the collection of bots.${first}. Give each bot its own collection (two bots with the same selfSpeaker need an explicit collection)`,
      });
    }
  }
  return problems;
}

function checkExposure(config: ParsedConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  // The embedded store serves Qdrant's own API and checks only its own key (store.embedded.apiKey).
  if (config.store.kind === 'embedded' && !isLoopbackHost(config.store.host) && !config.store.apiKey) {
    problems.push({
      path: 'store.embedded.apiKey',
      message:
        `must be set because store.embedded.host "${config.store.host}" is reachable from other machines, and the store's Qdrant API ` +
        'would otherwise let anyone there read and erase every memory. Set it (SillyTavern sends it as its Qdrant API key), or use 127.0.0.1',
    });
  }
  if (config.apiKeys.length > 0) return problems;
  const exposed: [string, string][] = [['listen.host', config.listen.host]];
  return problems.concat(
    exposed
      .filter(([, host]) => !isLoopbackHost(host))
      .map(([path, host]) => ({
        path,
        message:
          `"${host}" is reachable from other machines, and without API keys anyone there could read and erase every memory. ` +
          'Add apiKeys (see docs/configuration.md) to listen beyond loopback, or use 127.0.0.1',
      })),
  );
}

function checkApiKeys(config: ParsedConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const botNames = Object.keys(config.bots);
  const firstByKey = new Map<string, number>();
  const firstByName = new Map<string, number>();
  config.apiKeys.forEach((apiKey, index) => {
    const where = `apiKeys[${index}]`;
    const sameKey = firstByKey.get(apiKey.key);
    // An empty key means its keyEnv was unset, which is already reported.
    if (sameKey === undefined || apiKey.key === '') firstByKey.set(apiKey.key, index);
    else {
      problems.push({
        path: `${where}.key`,
        message: `is the same key as apiKeys[${sameKey}]. Give each client its own key, so it can be revoked alone`,
      });
    }
    const sameName = firstByName.get(apiKey.name);
    if (sameName === undefined) firstByName.set(apiKey.name, index);
    else {
      problems.push({
        path: `${where}.name`,
        message: `"${apiKey.name}" is already the name of apiKeys[${sameName}]. Give each key its own name, for the audit log`,
      });
    }
    if (apiKey.bots === '*') return;
    for (const bot of apiKey.bots.filter((name) => !botNames.includes(name))) {
      problems.push({
        path: `${where}.bots`,
        message: `names the bot "${bot}", which is not configured. Use one of ${botNames.join(', ')}, or '*'`,
      });
    }
  });
  return problems;
}
