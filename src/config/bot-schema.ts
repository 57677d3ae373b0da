/**
 * @module One entry of `bots:`: the agent whose memories a collection holds, and how its chunks are cut
 * and recalled. Defaults match st-qdrant-memory's, so a bot shared with SillyTavern needs only selfSpeaker.
 */
import { z } from 'zod';
import { isTimeZone } from '../wire/time-zone.js';
import { decimal, integer, oneOf, section, text } from './config-fields.js';
import type { BotConfig } from './config-types.js';
import {
  COLLECTION_NAMINGS,
  defaultCollectionName,
  isUsableCollectionName,
  perChatCollectionName,
} from './st-collection-name.js';

/** Bot names appear in URLs and request bodies, so they stay plain. */
export const BOT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

const chunkSchema = section({
  /** A chunk is stored once it reaches this many characters. */
  minChars: integer(1, 1_000_000, 'Set it to the smallest chunk worth storing, e.g. 1200.').default(1200),
  /** And never grows past this; must be ≥ minChars. A longer single message is a chunk of its own. */
  maxChars: integer(1, 1_000_000, 'Set it to the largest chunk to store, e.g. 1500.').default(1500),
  /**
   * A partial chunk is stored after this long without messages (by the service's clock: how live chat ends a
   * chunk).
   */
  idleMs: integer(0, 86_400_000, 'Set it in milliseconds, e.g. 30000 for 30 seconds.').default(30_000),
  /**
   * A chunk also closes between two consecutive messages more than this far apart by their own timestamps
   * (`ts`), and always where the UTC day changes, so the chunk's `[YYYY-MM-DD]` header is the day of every
   * message in it. This is what cuts an imported history sent in one go.
   */
  maxGapMs: integer(1, 31_536_000_000, 'Set it in milliseconds, e.g. 1800000 for 30 minutes.').default(
    1_800_000,
  ),
}).superRefine((chunk, ctx) => {
  if (chunk.minChars > chunk.maxChars) {
    ctx.addIssue({
      code: 'custom',
      path: ['minChars'],
      message: `minChars (${chunk.minChars}) is larger than maxChars (${chunk.maxChars}). Lower minChars or raise maxChars`,
    });
  }
});

/** "No noise when nothing fits" (docs/recall.md): recall answers nothing when the question is about what no memory mentions. */
const noiseCutSchema = section({
  /**
   * The share of the question's meaning (1 − the cosine of the question with and without them) carried by words
   * no memory holds, from which recall answers nothing, unless a memory matches closely (`score`) or the best one
   * is among the first two by both meaning and words. 0 turns the cut off; a request's `noise_cut` replaces it.
   */
  share: decimal(0, 1, 'Set a share from 0 (off) to 1, e.g. 0.12.').default(0.12),
  /** A best memory with at least this cosine similarity is a match: never cut. */
  score: decimal(0, 1, 'Set a similarity from 0 to 1, e.g. 0.6.').default(0.6),
});

const retrieveSchema = section({
  /** Memories per recall, 1-100. */
  limit: integer(1, 100, 'Set how many memories a recall returns, e.g. 5.').default(5),
  /**
   * The most characters the recalled block may hold (whole memories only, whichever of this and `limit` ends
   * first), when the request sends no `max_chars`. Unset, recall answers as before.
   */
  maxChars: integer(1, 100_000, 'Set the most characters of the recalled block, e.g. 2000.').optional(),
  /** Minimum cosine similarity, 0-1. */
  scoreThreshold: decimal(0, 1, 'Set a similarity from 0 to 1, e.g. 0.3.').default(0.3),
  noiseCut: noiseCutSchema.prefault({}),
  /**
   * `global`, `guild`, `channel` or `dm-private`: how far memories travel. `guild`/`channel` keep them where
   * they were said.
   */
  scope: oneOf(['global', 'guild', 'channel', 'dm-private'], 'Pick how far memories travel.').default(
    'global',
  ),
});

/** The file's shape of one bot; its name (the key in `bots:`) is added by the bots schema. */
export const botSchema = section({
  /**
   * The agent's name in memories; with SillyTavern, its character name.
   * @default required
   */
  selfSpeaker: text('Set it to the name the agent speaks as, e.g. "Mythos".'),
  /**
   * Qdrant collection, 1-255 characters without spaces or `<>:"/|?*` (Unicode is fine). "Dr. Smith" →
   * `mem_dr_smith`; under the upstream rule a name with no Latin letters or digits ("Алиса") must set it.
   * Per-chat collections (Shadota's fork) are always set here: see docs/interfaces.md, SillyTavern.
   * @default `mem_` + selfSpeaker sanitized by `collectionNaming`'s rule
   */
  collection: text('Set the Qdrant collection name, e.g. mem_mythos.')
    .refine(
      isUsableCollectionName,
      'use 1 to 255 characters without spaces, `<>:"/\\|?*` or a trailing `_`. Rename the collection',
    )
    // memory-pool keeps a collection's parts in `<collection>__parts`: a bot's memories never go there.
    .refine(
      (name) => !name.endsWith('__parts'),
      "a name ending in `__parts` is where memory-pool keeps a collection's parts index. Rename the collection",
    )
    .optional(),
  /**
   * Whose rule makes the default collection: `upstream` (st-qdrant-memory: lowercase, only `a-z0-9_-` kept),
   * `starrysky180111` (its fork: also keeps CJK ideographs and kana, "初音ミク" → `mem_初音ミク`) or
   * `qqpf4zrrwp-blip` (its fork: keeps every script and case, "Алиса" → `mem_Алиса`).
   */
  collectionNaming: oneOf(COLLECTION_NAMINGS, 'Pick the rule your SillyTavern extension uses.').default(
    'upstream',
  ),
  /**
   * Shadota's per-chat fork: the SillyTavern chat's id (its chat file's name, e.g. `Seraphina -
   * 2025-05-01@12h30m00s`). The default collection becomes that chat's, `mem_<selfSpeaker>_<chatId>`
   * sanitized upstream's way, and every point memory-pool writes carries `chatId`, which the fork's recall
   * filters on. One bot per chat.
   */
  stChatId: text('Set the SillyTavern chat id, e.g. "Seraphina - 2025-05-01@12h30m00s".').optional(),
  /** Source recorded when neither the request nor its key names one. */
  defaultSource: text('Set the source to record, e.g. discord.').default('api'),
  /** User id → the one name that person appears as. Quote long ids. */
  speakerAliases: z
    .record(z.string(), text('Set the display name for this user id, e.g. Helen.'), {
      error: 'expected a mapping of user id to name. Write it as "705512345678901234": Helen',
    })
    .default({}),
  /**
   * The IANA zone the bot's people live in (`Europe/Paris`, `Asia/Tokyo`): a recall that names a time
   * ("yesterday", "on Tuesday") without a `tz` of its own reads it in this zone. Discord's recall and the
   * companion always use it (docs/recall.md, "Time in recall").
   */
  timezone: text('Set an IANA zone, e.g. Europe/Paris.')
    .refine(isTimeZone, 'is not an IANA time zone. Set one such as Europe/Paris, Asia/Tokyo or UTC')
    .default('UTC'),
  chunk: chunkSchema.prefault({}),
  retrieve: retrieveSchema.prefault({}),
});

type BotFile = z.output<typeof botSchema>;

/** `bots:` as a whole: names checked, each bot completed with its name and collection. */
export const botsSchema = z
  .record(z.string(), botSchema, {
    error: 'expected a mapping of bot name to bot settings. See bots.<name> in docs',
  })
  .superRefine((bots, ctx) => {
    for (const [name, bot] of Object.entries(bots)) {
      if (!BOT_NAME.test(name)) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'bot names use only letters, digits, `_` and `-`. Rename the bot',
        });
      } else if (
        bot.collection === undefined &&
        bot.stChatId === undefined &&
        !isUsableCollectionName(defaultCollectionName(bot.selfSpeaker, bot.collectionNaming))
      ) {
        // Non-Latin names sanitize to nothing, and every such agent would share the one collection `mem_`.
        ctx.addIssue({
          code: 'custom',
          path: [name, 'collection'],
          message: `selfSpeaker "${bot.selfSpeaker}" gives the unusable default collection "${defaultCollectionName(bot.selfSpeaker, bot.collectionNaming)}" (${NAMING_KEEPS[bot.collectionNaming]} survive the ${bot.collectionNaming} sanitizing). Set bots.${name}.collection (and use the same name in SillyTavern), or collectionNaming to the rule your extension uses`,
        });
      }
    }
    if (Object.keys(bots).length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'no bots are configured. Add one under bots:, or remove bots: to use the default bot',
      });
    }
  })
  .transform(
    (bots): Record<string, BotConfig> =>
      Object.fromEntries(Object.entries(bots).map(([name, bot]) => [name, completeBot(name, bot)])),
  );

const NAMING_KEEPS = {
  upstream: 'only Latin letters and digits',
  starrysky180111: 'only Latin letters, digits, CJK ideographs and kana',
  'qqpf4zrrwp-blip': 'all letters',
} as const;

// The naming rule only picks the default collection; the rest of memory-pool sees the name it chose.
function completeBot(name: string, { collectionNaming, ...bot }: BotFile): BotConfig {
  const collection =
    bot.collection ??
    (bot.stChatId === undefined
      ? defaultCollectionName(bot.selfSpeaker, collectionNaming)
      : perChatCollectionName(bot.selfSpeaker, bot.stChatId));
  return { name, ...bot, collection };
}
