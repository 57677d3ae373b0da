/**
 * @module The `people:` section (docs/people.md): which interfaces may vouch for which platforms' users when
 * linking accounts, asking or saying a link code, unlinking, or recalling a person's DMs.
 */
import { z } from 'zod';
import { section } from './config-fields.js';

/** Today's trust model: Discord users by the Discord interface and the Hermes plugin, other platforms' by Hermes. */
export const DEFAULT_VOUCHERS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  discord: Object.freeze(['discord', 'hermes']),
  '*': Object.freeze(['hermes']),
});

const VOUCHERS_FIX =
  'Write it as a mapping of platform to key sources, e.g. { discord: [discord, hermes], "*": [hermes] }.';
const PLATFORM_PROBLEM = `expected a platform name as user ids spell it before the ":" (discord, telegram, slack...) or "*" for every other platform. ${VOUCHERS_FIX}`;
const platform = z.string().regex(/^(\*|[A-Za-z0-9][A-Za-z0-9_.-]{0,63})$/);
const sourceName = z
  .string({ error: `expected a key source name, e.g. hermes. ${VOUCHERS_FIX}` })
  .trim()
  .min(1, { error: `expected a key source name, not an empty one. ${VOUCHERS_FIX}` })
  .max(100, { error: 'expected a source name of at most 100 characters.' });

export const peopleSchema = section({
  /**
   * Which API key sources (a key's `source`) may vouch for a platform's users: link their accounts by code,
   * unlink them, or widen a DM recall to their person. Keys are the platform as user ids name it before the
   * `:`, in any case (`discord` also covers `discord_user_id`; two keys differing only by case are refused),
   * `"*"` every platform not listed; values list sources
   * (`[]`: admin keys only). Setting it replaces the whole default: copy the lines you keep. Personas and
   * user ids without a platform are always admin-only.
   */
  vouchers: z
    .record(platform, z.array(sourceName, { error: `expected a list of sources. ${VOUCHERS_FIX}` }), {
      error: (issue) =>
        issue.code === 'invalid_key' ? PLATFORM_PROBLEM : `expected a mapping. ${VOUCHERS_FIX}`,
    })
    .transform((map, context) => {
      // Platforms are matched in lower case (an account's `Telegram:` is `telegram:`), so two keys differing
      // only by case would silently drop one: refuse them.
      const byPlatform = new Map<string, { name: string; sources: string[] }>();
      for (const [name, sources] of Object.entries(map)) {
        const platformName = name.toLowerCase();
        const earlier = byPlatform.get(platformName);
        if (earlier !== undefined) {
          context.addIssue({
            code: 'custom',
            path: [name],
            message: `"${earlier.name}" and "${name}" name the same platform (platform names are not case-sensitive); keep one of them. ${VOUCHERS_FIX}`,
          });
          return z.NEVER;
        }
        byPlatform.set(platformName, { name, sources: [...new Set(sources)] });
      }
      return Object.fromEntries([...byPlatform].map(([name, { sources }]) => [name, sources]));
    })
    .default(() => ({ ...DEFAULT_VOUCHERS }) as Record<string, string[]>),
});
