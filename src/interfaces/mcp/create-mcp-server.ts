/** @module The memory-pool MCP server: `recall`, `remember`, `forget` and `link` tools and a per-bot resource, over any MemoryBackend. */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ValidationError } from '../../errors/memory-pool-error.js';
import { retrieveRequestSchema } from '../../wire/retrieve-request.js';
import type { SaveMessage } from '../../wire/save-request.js';
import { describeBotStatus } from './describe-bot-status.js';
import { registerForgetTool } from './forget-tool.js';
import { registerLinkTool } from './link-tool.js';
import type { MemoryBackend } from './memory-backend.js';
import { recallOutputShape } from './recall-output.js';
import { deriveRememberMessageId } from './remember-message-id.js';
import { runTool } from './run-tool.js';

export interface CreateMcpServerOptions {
  readonly backend: MemoryBackend;
  /** The bot tools use when the caller names none; without it every call must pass `bot`. */
  readonly defaultBot?: string;
  /** Every bot the service has, each listed as a resource; defaults to `defaultBot` alone. */
  readonly bots?: readonly string[];
  /** Reported to MCP clients in the handshake. Default "0.1.0". */
  readonly version?: string;
}

/** Every memory saved through MCP is tagged with this source, so it can be told apart (and filtered) later. */
export const MCP_SOURCE = 'mcp';

const botField = z
  .string()
  .min(1)
  .optional()
  .describe('The memory-pool bot (companion) to use; defaults to the configured one');
const spokenLine = {
  text: z.string().min(1).describe('What was said or what to remember'),
  speaker: z
    .string()
    .min(1)
    .optional()
    .describe('"self" for you (the agent), or the name of the person who said it. Default "self"'),
  id: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('Your own id for this message; the same text with another id is stored again'),
};

/** Builds the server; connect it to a transport (stdio, streamable HTTP, in-memory) with `server.connect`. */
export function createMcpServer(options: CreateMcpServerOptions): McpServer {
  const { backend } = options;
  const server = new McpServer({ name: 'memory-pool', version: options.version ?? '0.1.0' });
  const pickBot = (bot: string | undefined): string => {
    const chosen = bot ?? options.defaultBot;
    if (chosen === undefined) {
      throw new ValidationError(
        'bot',
        'no bot given: pass `bot` (or configure a default bot: `memory-pool mcp --bot B`)',
      );
    }
    return chosen;
  };

  server.registerTool(
    'recall',
    {
      title: 'Recall memories',
      description:
        'Search long-term memory for past conversations related to a query. Returns a block ready to read.',
      inputSchema: {
        bot: botField,
        query: retrieveRequestSchema.shape.query_text.describe('What to remember about, in plain words'),
        limit: retrieveRequestSchema.shape.limit.describe(
          'Most memories to return (1-50); the bot default when unset',
        ),
        max_chars: retrieveRequestSchema.shape.max_chars.describe(
          'Most characters of the returned block (1-100000), whole memories only; with limit, whichever comes first',
        ),
        score_threshold: retrieveRequestSchema.shape.score_threshold.describe('Minimum similarity (-1 to 1)'),
        noise_cut: retrieveRequestSchema.shape.noise_cut.describe(
          "Recall nothing when the query's words that no memory holds carry at least this share of its meaning (0 = off, up to 1); the bot default when unset",
        ),
        exclude_message_ids: retrieveRequestSchema.shape.exclude_message_ids.describe(
          'Message ids already in your context, left out of the results',
        ),
        guild_id: retrieveRequestSchema.shape.guild_id.describe(
          "The Discord server (guild) you are talking in, for the bot's privacy scope",
        ),
        channel_id: retrieveRequestSchema.shape.channel_id.describe(
          "The channel you are talking in, for the bot's privacy scope",
        ),
        is_dm: retrieveRequestSchema.shape.is_dm.describe(
          'Whether you are talking in a direct message (inferred from a channel without a guild)',
        ),
        scope: retrieveRequestSchema.shape.scope.describe(
          "Narrow the bot's privacy scope for this recall: dm-private, guild or channel (never wider)",
        ),
        sources: retrieveRequestSchema.shape.sources.describe(
          'Only memories saved through these interfaces, e.g. ["discord", "mcp"]',
        ),
        person: retrieveRequestSchema.shape.person.describe(
          'Only memories where this person speaks: a person id of the bot (the owner lists them at GET /bots/{bot}/people)',
        ),
        now: retrieveRequestSchema.shape.now.describe(
          'The time now for the asker (ISO 8601 with offset, or Unix ms), for "yesterday" in the query; default the server clock',
        ),
        tz: retrieveRequestSchema.shape.tz.describe(
          "The asker's IANA time zone, e.g. Europe/Paris; default the bot's timezone",
        ),
        time_from: retrieveRequestSchema.shape.time_from.describe(
          'Only memories from then on: an ISO 8601 date (whole day in tz), a date-time with offset, or Unix ms',
        ),
        time_to: retrieveRequestSchema.shape.time_to.describe(
          'Only memories before then (a date: up to the end of that day in tz)',
        ),
      },
      outputSchema: recallOutputShape,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      runTool(async () => {
        const response = await backend.retrieve({
          bot: pickBot(args.bot),
          query_text: args.query,
          ...(args.limit === undefined ? {} : { limit: args.limit }),
          ...(args.max_chars === undefined ? {} : { max_chars: args.max_chars }),
          ...(args.score_threshold === undefined ? {} : { score_threshold: args.score_threshold }),
          ...(args.noise_cut === undefined ? {} : { noise_cut: args.noise_cut }),
          ...(args.exclude_message_ids === undefined
            ? {}
            : { exclude_message_ids: args.exclude_message_ids }),
          ...(args.guild_id === undefined ? {} : { guild_id: args.guild_id }),
          ...(args.channel_id === undefined ? {} : { channel_id: args.channel_id }),
          ...(args.sources === undefined ? {} : { sources: args.sources }),
          ...(args.is_dm === undefined ? {} : { is_dm: args.is_dm }),
          ...(args.scope === undefined ? {} : { scope: args.scope }),
          ...(args.person === undefined ? {} : { person: args.person }),
          ...(args.now === undefined ? {} : { now: args.now }),
          ...(args.tz === undefined ? {} : { tz: args.tz }),
          ...(args.time_from === undefined ? {} : { time_from: args.time_from }),
          ...(args.time_to === undefined ? {} : { time_to: args.time_to }),
        });
        return {
          content: [{ type: 'text', text: response.formatted || 'No memories found.' }],
          structuredContent: { formatted: response.formatted, hits: [...response.hits] },
        };
      }),
  );

  server.registerTool(
    'remember',
    {
      title: 'Remember',
      description:
        'Save something to long-term memory: one line (`text`), or a short exchange (`messages`, oldest first). ' +
        'Saving the same line twice stores it once. It becomes searchable once the service has chunked it.',
      inputSchema: {
        bot: botField,
        text: spokenLine.text.optional(),
        speaker: spokenLine.speaker,
        id: spokenLine.id,
        messages: z
          .array(z.object(spokenLine))
          .max(100)
          .optional()
          .describe('Several lines, oldest first; saved before `text`'),
      },
      annotations: { idempotentHint: true },
    },
    (args) =>
      runTool(async () => {
        const lines = [...(args.messages ?? [])];
        if (args.text !== undefined) lines.push({ text: args.text, speaker: args.speaker, id: args.id });
        if (lines.length === 0) {
          throw new ValidationError('text', 'nothing to remember: pass `text` or `messages`');
        }
        const messages = lines.map((line) => toSaveMessage(line.text, line.speaker, line.id));
        const result = await backend.save({ bot: pickBot(args.bot), source: MCP_SOURCE, messages });
        return {
          content: [
            {
              type: 'text',
              text: `Saved ${result.accepted} new message(s); ${result.duplicates} were already known.`,
            },
          ],
        };
      }),
  );

  registerForgetTool(server, backend, pickBot, botField);
  registerLinkTool(server, backend, pickBot, botField);

  const listedBots = options.bots ?? (options.defaultBot === undefined ? [] : [options.defaultBot]);
  server.registerResource(
    'bot',
    new ResourceTemplate('memory-pool://bots/{bot}', {
      list:
        listedBots.length === 0
          ? undefined
          : () => ({
              resources: listedBots.map((bot) => ({
                uri: `memory-pool://bots/${encodeURIComponent(bot)}`,
                name: bot,
              })),
            }),
      complete: { bot: (value) => listedBots.filter((bot) => bot.startsWith(value)) },
    }),
    {
      title: 'Bot memory stats',
      description:
        "The bot's memory: points, messages by source, queue depth, and whether memory-pool is ready",
      mimeType: 'application/json',
    },
    async (uri, variables) => {
      const bot = decodeURIComponent(String(variables.bot));
      const status = await describeBotStatus(backend, bot);
      return {
        contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(status, null, 2) }],
      };
    },
  );
  return server;
}

function toSaveMessage(text: string, speaker: string | undefined, id: string | undefined): SaveMessage {
  const who = speaker?.trim() || 'self';
  const message_id = deriveRememberMessageId(text, who, id);
  return who === 'self'
    ? { speaker_kind: 'self', text, message_id }
    : { speaker_kind: 'user', speaker_name: who, text, message_id };
}
