/** @module The wire contract of `POST /save`, shared by the server and the TypeScript client so they cannot drift. */
import { z } from 'zod';

const optionalId = z.string().min(1).max(200).optional();

/** One message of a client's recent window. Unknown fields are ignored so older and newer clients keep working. */
export const saveMessageSchema = z.object({
  speaker_kind: z.enum(['user', 'self'], { message: 'must be "user" or "self"' }),
  text: z.string({ message: 'must be a string' }),
  message_id: z
    .string({ message: 'must be a string (send platform ids such as Discord snowflakes as strings)' })
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters'),
  /** Unix ms (seconds are accepted and converted); the arrival time when missing. */
  ts: z.number({ message: 'must be a number (Unix milliseconds)' }).nonnegative().optional(),
  discord_user_id: optionalId,
  /** A platform-qualified user id for non-Discord clients, e.g. `telegram:42`. */
  user_id: optionalId,
  speaker_name: z.string().max(200).optional(),
  channel_id: optionalId,
  guild_id: optionalId,
  /** Set by interfaces that know a message was edited. */
  edited: z.boolean().optional(),
});

export const saveRequestSchema = z.object({
  bot: z.string({ message: 'must name a configured bot' }).min(1, 'must name a configured bot'),
  source: z.string().min(1).max(100).optional(),
  messages: z.array(saveMessageSchema, { message: 'must be an array of messages' }),
});

export type SaveMessage = z.infer<typeof saveMessageSchema>;
export type SaveRequest = z.infer<typeof saveRequestSchema>;

/** `POST /save` answer: how many messages were new and how many were already known (re-sent windows). */
export interface SaveResponse {
  readonly ok: true;
  readonly accepted: number;
  readonly duplicates: number;
}
