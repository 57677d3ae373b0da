/**
 * @module One entry of `apiKeys:`: a credential a client sends as `Authorization: Bearer <key>`, and what
 * it may do. With no entries the service has no auth, which is only allowed on loopback (check-config).
 */
import { z } from 'zod';
import type { Operation } from './config-types.js';
import { oneOf, section, secret, showValue, text } from './config-fields.js';

/** Keys are guessable below this; the error suggests a way to generate one. */
export const MIN_KEY_LENGTH = 16;

const OPERATIONS = ['save', 'retrieve', 'forget', 'admin'] as const satisfies readonly Operation[];

function namesOrAll(what: string, example: string) {
  const fix = `Use a list of ${what} names, e.g. [${example}], or '*' for all`;
  return z.union([z.literal('*'), z.array(text(`Write each ${what} name as a string.`)).min(1)], {
    error: (issue) => `expected a list of names or '*', got ${showValue(issue.input)}. ${fix}`,
  });
}

export const apiKeySchema = section({
  /**
   * Label for logs and audit; unique. The key itself is never logged.
   * @default required
   */
  name: text('Name the key after who uses it, e.g. discord-bot.'),
  /**
   * The key, at least 16 characters, unique.
   * @default one of key/keyEnv required
   */
  key: secret(
    MIN_KEY_LENGTH,
    'Use a long random string, e.g. the output of `openssl rand -hex 24`.',
  ).optional(),
  /** Name of an environment variable holding the key. So the file can be committed without it. */
  keyEnv: text('Set the name of the environment variable that holds the key.').optional(),
  /**
   * Bots the key may use: a list of configured bot names, or `'*'`.
   * @default required
   */
  bots: namesOrAll('bot', 'mythos'),
  /**
   * Sources it may save and forget as. Recall is not limited by it: the key recalls every source and may
   * filter recall (`sources`) by any.
   */
  sources: namesOrAll('source', 'discord, hermes').default('*'),
  /**
   * Any of `save`, `retrieve`, `forget`, `admin`. `forget` deletes memories, `admin` manages the service (and
   * implies the others).
   */
  scopes: z
    .array(oneOf(OPERATIONS, `Use scopes from ${OPERATIONS.join(', ')}.`), {
      error: `expected a list of scopes. Write e.g. [save, retrieve]`,
    })
    .min(1, {
      error: 'is empty, so the key could do nothing. List at least one of save, retrieve, forget, admin',
    })
    .default(['save', 'retrieve']),
  /** Source recorded on its saves when the request names none; must be in `sources`. */
  source: text('Set the source this key saves as, e.g. discord.').optional(),
})
  .superRefine((entry, ctx) => {
    if (entry.key !== undefined && entry.keyEnv !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['keyEnv'],
        message: 'both key and keyEnv are set. Keep only one',
      });
    } else if (entry.key === undefined && entry.keyEnv === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['key'],
        message: 'is required. Set key, or keyEnv to the name of an environment variable holding the key',
      });
    }
    if (entry.source !== undefined && entry.sources !== '*' && !entry.sources.includes(entry.source)) {
      ctx.addIssue({
        code: 'custom',
        path: ['source'],
        message: `"${entry.source}" is not in this key's sources. Add it to sources or change source`,
      });
    }
  })
  .transform(({ keyEnv: _resolvedBeforeParsing, key, ...entry }) => ({ ...entry, key: key ?? '' }));
