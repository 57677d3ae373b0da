/**
 * @module The MCP `link` tool: asks for a one-use code for the user's account, or redeems one said on another
 * interface, through `POST /bots/{bot}/link-codes` and `/redeem` (docs/people.md). The MCP
 * client names the account; the key it presents vouches for it, as for the user ids it saves.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { WireAccount } from '../../wire/people.js';
import type { MemoryBackend } from './memory-backend.js';
import { runTool } from './run-tool.js';

const accountId = z.string().min(1).max(200);

/** Registers `link`; `pickBot` resolves the bot like the other tools. The service checks the key's rights. */
export function registerLinkTool(
  server: McpServer,
  backend: MemoryBackend,
  pickBot: (bot: string | undefined) => string,
  botField: z.ZodOptional<z.ZodString>,
): void {
  server.registerTool(
    'link',
    {
      title: 'Link accounts',
      description:
        "Make the user's accounts on several apps one person, so memories name them once and follow them. " +
        'Without `code`: get a one-use code (10 minutes) for this account, for the user to say on their other ' +
        'account. With `code`: link this account with the one that asked for the code. Name the account with ' +
        'exactly one of `user_id` (platform-qualified, e.g. "telegram:5678"), `discord_user_id` or `persona`.',
      inputSchema: {
        bot: botField,
        user_id: accountId
          .optional()
          .describe('The user, platform-qualified: "telegram:5678", "slack:T1-U2"'),
        discord_user_id: accountId.optional().describe('A Discord user id (the digits)'),
        persona: accountId.optional().describe('A SillyTavern persona name (needs an admin key)'),
        code: z
          .string()
          .max(40)
          .optional()
          .describe('The code the other account was given, like ABCDE-FGHJK'),
      },
      annotations: { idempotentHint: false },
    },
    (args) =>
      runTool(async () => {
        const bot = pickBot(args.bot);
        // Passed as given: the service names the field when it is not exactly one account.
        const account = {
          ...(args.user_id === undefined ? {} : { user_id: args.user_id }),
          ...(args.discord_user_id === undefined ? {} : { discord_user_id: args.discord_user_id }),
          ...(args.persona === undefined ? {} : { persona: args.persona }),
        } as WireAccount;
        if (args.code === undefined) {
          const given = await backend.createLinkCode(bot, { account });
          return {
            content: [
              {
                type: 'text',
                text:
                  `Link code: ${given.code} (one use, valid until ${given.expires_at}). Tell the user to say it ` +
                  'from their other account (e.g. Discord: /memory link code:…). Do not save it to memory.',
              },
            ],
            structuredContent: { code: given.code, expires_at: given.expires_at },
          };
        }
        const person = await backend.redeemLinkCode(bot, { code: args.code, account });
        return {
          content: [
            {
              type: 'text',
              text: `Linked: this account and the one that asked for the code are now one person, "${person.name}" (${person.id}).`,
            },
          ],
          structuredContent: { person },
        };
      }),
  );
}
