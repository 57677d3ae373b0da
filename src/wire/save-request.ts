/** @module The wire contract of `POST /save`, shared by the server and the TypeScript client so they cannot drift. */
import { z } from 'zod';

/** U+0000 cannot be stored by a Postgres journal, and no platform sends one in an id. */
const NO_NUL = 'must not contain U+0000 (a NUL character)';
const withoutNul = (value: string) => !value.includes('\u0000');

const optionalId = z.string().min(1).max(200).refine(withoutNul, NO_NUL).optional();

/** A platform message id. Commas are refused: chunks store their ids comma-joined (format.md). */
export const messageIdSchema = z
  .string({ message: 'must be a string (send platform ids such as Discord snowflakes as strings)' })
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  .refine((id) => !id.includes(','), 'must not contain a comma (chunks store message ids comma-joined)')
  .refine(withoutNul, NO_NUL);

/** One message of a client's recent window. Unknown fields are ignored so older and newer clients keep working. */
export const saveMessageSchema = z.object({
  speaker_kind: z.enum(['user', 'self'], { message: 'must be "user" or "self"' }),
  text: z.string({ message: 'must be a string' }),
  message_id: messageIdSchema,
  /** Unix ms (seconds are accepted and converted); the arrival time when missing. */
  ts: z.number({ message: 'must be a number (Unix milliseconds)' }).nonnegative().optional(),
  discord_user_id: optionalId,
  /** A platform-qualified user id for non-Discord clients, e.g. `telegram:42`. */
  user_id: optionalId,
  speaker_name: z.string().max(200).optional(),
  channel_id: optionalId,
  guild_id: optionalId,
  /**
   * Set by interfaces that know a message was edited. Optional: any known id sent with new text is an edit
   * (its chunk is rebuilt in place); the same text again is a no-op.
   */
  edited: z.boolean().optional(),
  /** A direct message. Discord messages with a channel and no guild count as DMs without it. */
  is_dm: z.boolean().optional(),
});

export const saveRequestSchema = z.object({
  bot: z.string({ message: 'must name a configured bot' }).min(1, 'must name a configured bot'),
  source: z.string().min(1).max(100).refine(withoutNul, NO_NUL).optional(),
  messages: z.array(saveMessageSchema, { message: 'must be an array of messages' }),
});

export type SaveMessage = z.infer<typeof saveMessageSchema>;
export type SaveRequest = z.infer<typeof saveRequestSchema>;

/** `POST /save` answer: what happened to each message of the window, counted. */
export interface SaveResponse {
  readonly ok: true;
  /** New messages, journaled and soon chunked. */
  readonly accepted: number;
  /** Already known with the same text (re-sent windows). */
  readonly duplicates: number;
  /** Already known with new text: replaced, and their chunks rebuilt in place. */
  readonly edited: number;
  /** Forgotten earlier (POST /forget): ignored, never brought back. */
  readonly forgotten: number;
}
