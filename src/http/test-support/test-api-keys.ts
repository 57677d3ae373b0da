/** @module Two API keys for tests of authorization: one limited like a Discord bot's, one that may only recall. */
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
