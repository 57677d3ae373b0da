/** @module The MCP `forget` tool: removes memories by message id or by source, through `POST /forget`. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ValidationError } from '../../errors/memory-pool-error.js';
import { type ForgetResponse, forgetRequestSchema } from '../../wire/forget-request.js';
import type { MemoryBackend } from './memory-backend.js';
import { runTool } from './run-tool.js';

/** Typed against ForgetResponse, so a new count on the wire fails to compile here instead of going missing. */
export const forgetOutputShape = {
  points_deleted: z.number().describe('Stored memories removed entirely'),
  points_rewritten: z.number().describe('Stored memories kept without the forgotten messages'),
  pending_dropped: z.number().describe('Forgotten messages that had not been stored yet'),
  messages_forgotten: z.number().describe('Messages forgotten; re-sending them never brings them back'),
} satisfies Record<Exclude<keyof ForgetResponse, 'ok'>, z.ZodNumber>;

/** Registers `forget`; `pickBot` resolves the bot like the other tools. The service checks the key's scope. */
export function registerForgetTool(
  server: McpServer,
  backend: MemoryBackend,
  pickBot: (bot: string | undefined) => string,
  botField: z.ZodOptional<z.ZodString>,
): void {
  server.registerTool(
    'forget',
    {
      title: 'Forget',
      description:
        'Permanently remove memories: the messages with these ids (`message_ids`, as listed in a recall hit), ' +
        'or everything saved through one interface (`source`, e.g. "mcp" or "discord"). Pass exactly one. ' +
        'Forgetting the same thing twice is harmless.',
      inputSchema: {
        bot: botField,
        message_ids: forgetRequestSchema.shape.message_ids.describe('Message ids to forget'),
        source: z
          .string()
          .min(1)
          .max(100)
          .optional()
          .describe('Forget every memory saved through this interface'),
      },
      outputSchema: forgetOutputShape,
      annotations: { destructiveHint: true, idempotentHint: true },
    },
    (args) =>
      runTool(async () => {
        if ((args.message_ids === undefined) === (args.source === undefined)) {
          throw new ValidationError(
            'message_ids',
            'say what to forget: pass either `message_ids` or `source`, not both',
          );
        }
        const result = await backend.forget({
          bot: pickBot(args.bot),
          ...(args.message_ids === undefined ? {} : { message_ids: args.message_ids }),
          ...(args.source === undefined ? {} : { source: args.source }),
        });
        const counts = {
          points_deleted: result.points_deleted,
          points_rewritten: result.points_rewritten,
          pending_dropped: result.pending_dropped,
          messages_forgotten: result.messages_forgotten,
        };
        return { content: [{ type: 'text', text: describeForget(counts) }], structuredContent: counts };
      }),
  );
}

function describeForget(counts: Omit<ForgetResponse, 'ok'>): string {
  if (counts.messages_forgotten === 0 && counts.points_deleted === 0 && counts.points_rewritten === 0) {
    return 'Nothing to forget: no stored memory matched (it may have been forgotten already).';
  }
  return (
    `Forgot ${counts.messages_forgotten} message(s): ${counts.points_deleted} memory chunk(s) deleted, ` +
    `${counts.points_rewritten} rewritten without them, ${counts.pending_dropped} not yet stored dropped.`
  );
}
