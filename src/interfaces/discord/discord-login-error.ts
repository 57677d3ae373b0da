/** @module Discord's refusals at start-up, as config errors that say what to change and where. */
import { ConfigError } from '../../errors/memory-pool-error.js';

/** The gateway's close codes that no retry can fix. */
const DISALLOWED_INTENTS = 4014;
const AUTHENTICATION_FAILED = 4004;

/** Turns a failed login (and the gateway's last close code, if any) into the fix a person must make. */
export function explainLoginFailure(error: unknown, closeCode: number | undefined): Error {
  if (closeCode === DISALLOWED_INTENTS) {
    return new ConfigError(
      'discord',
      'Discord refused the privileged Message Content intent (gateway close 4014), without which messages arrive ' +
        'without their text. Enable it: Developer Portal → your application → Bot → Privileged Gateway Intents → ' +
        'Message Content Intent, save, and start memory-pool again',
      error,
    );
  }
  const code = (error as { code?: unknown } | undefined)?.code;
  if (closeCode === AUTHENTICATION_FAILED || code === 'TokenInvalid') {
    return new ConfigError(
      'discord.token',
      'Discord refused the bot token. Copy a fresh one (Developer Portal → Bot → Reset Token) into DISCORD_TOKEN',
      error,
    );
  }
  return new ConfigError('discord', `could not connect to Discord: ${(error as Error).message}`, error);
}
