/** @module The wire contract of `POST /forget`, shared by the server and the TypeScript client. */
import { z } from 'zod';
import { messageIdSchema } from './save-request.js';

const id = z.string().min(1).max(200);

/** A UUID as Qdrant accepts one for a point id (the hyphens may be left out). */
export const POINT_UUID_PATTERN = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** A stored point's id as Qdrant has it: an unsigned integer or a UUID. */
const pointIdSchema = z.union(
  [z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.string().regex(POINT_UUID_PATTERN)],
  { message: 'must be a point id: an unsigned integer or a UUID' },
);

/**
 * Exactly one selector: `message_ids`, `source`, `discord_user_id` / `user_id`, `channel_id`, `guild_id` or `person`.
 * Points SillyTavern wrote have no source; only `include_unsourced: true` (admin) reaches them: all of them with
 * `source: null`, or some with `point_ids`.
 */
export const forgetRequestSchema = z.object({
  bot: z.string({ message: 'must name a configured bot' }).min(1, 'must name a configured bot'),
  message_ids: z.array(messageIdSchema).min(1, 'must list at least one id').max(1000).optional(),
  source: z.string().min(1).max(100).nullable().optional(),
  include_unsourced: z.boolean().optional(),
  /** SillyTavern's points by id (with `include_unsourced: true`); a point that has a source is left alone. */
  point_ids: z.array(pointIdSchema).min(1, 'must list at least one id').max(1000).optional(),
  discord_user_id: id.optional(),
  user_id: id.optional(),
  channel_id: id.optional(),
  guild_id: id.optional(),
  /**
   * A person's id (GET /bots/{bot}/people): every message of every linked account, and the companion's replies in
   * their DMs, in every source; with `include_unsourced: true` (admin) also SillyTavern's points naming their persona.
   */
  person: id.optional(),
});

export type ForgetRequest = z.infer<typeof forgetRequestSchema>;

/** What a forget removed; a repeated forget answers zeros. */
export interface ForgetResponse {
  readonly ok: true;
  /** Stored points that held only forgotten messages, or matched a bulk selector: deleted. */
  readonly points_deleted: number;
  /** Stored points rewritten (same id) without the forgotten messages. */
  readonly points_rewritten: number;
  /** Forgotten messages that had not been written to the store yet. */
  readonly pending_dropped: number;
  /** Messages removed from the journal; their ids are remembered so a re-send never brings them back. */
  readonly messages_forgotten: number;
}

/** `GET /admin/forget-log` filters: one bot's entries (all bots when unset), newest first, at most `limit` (1-1000, default 100). */
export interface ForgetLogQuery {
  readonly bot?: string;
  readonly limit?: number;
}

/** `GET /admin/forget-log`. */
export interface ForgetLogResponse {
  readonly entries: readonly ForgetLogEntry[];
}

/** One entry of `GET /admin/forget-log`. */
export interface ForgetLogEntry {
  readonly id: number;
  /** Unix ms. */
  readonly at: number;
  /** The API key's name, or `open` when the service runs without keys. */
  readonly actor: string;
  readonly bot: string;
  readonly selector: Record<string, unknown>;
  readonly result: Omit<ForgetResponse, 'ok'>;
}
