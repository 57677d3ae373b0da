/**
 * @module API keys for tests of authorization: one limited like a Discord bot's, one like the Hermes plugin's, one
 * that may only recall, and the owner's (admin).
 */
import type { ApiKeyConfig } from '../../config/config-types.js';

/** Saves and recalls for the bot `mythos` only, acting as the source `discord`. */
export const discordKey: ApiKeyConfig = {
  name: 'discord-bot',
  key: 'discord-key-0123456789',
  bots: ['mythos'],
  sources: ['discord'],
  scopes: ['save', 'retrieve'],
  source: 'discord',
};

/** Recalls from every bot and source, and nothing else. */
export const readerKey: ApiKeyConfig = {
  name: 'reader',
  key: 'reader-key-0123456789',
  bots: '*',
  sources: '*',
  scopes: ['retrieve'],
};

/** Saves and recalls for every bot, acting as the source `hermes` (the Hermes plugin's key). */
export const hermesKey: ApiKeyConfig = {
  name: 'hermes',
  key: 'hermes-key-0123456789',
  bots: '*',
  sources: ['hermes'],
  scopes: ['save', 'retrieve'],
  source: 'hermes',
};

/** The owner's key: admin over every bot and source. */
export const ownerKey: ApiKeyConfig = {
  name: 'owner',
  key: 'owner-key-0123456789',
  bots: '*',
  sources: '*',
  scopes: ['admin'],
};
