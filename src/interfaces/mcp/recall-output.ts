/** @module The `recall` tool's structured output: the `/retrieve` answer, as a schema MCP clients can validate. */
import { z } from 'zod';
import type { RetrieveHit } from '../../wire/retrieve-request.js';

/** Typed against RetrieveHit, so a change to the wire type fails to compile here instead of drifting. */
const hitSchema: z.ZodType<RetrieveHit> = z.object({
  id: z.union([z.string(), z.number()]),
  score: z.number(),
  text: z.string(),
  speakers: z.string(),
  timestamp: z.number(),
  messageIds: z.string(),
  messageCount: z.number(),
  source: z.string().optional(),
  channelId: z.string().optional(),
  guildId: z.string().optional(),
});

export const recallOutputShape = {
  formatted: z.string().describe('The `[Past chat memories]` block, or "" when nothing was found'),
  hits: z.array(hitSchema),
};
