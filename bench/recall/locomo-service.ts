/**
 * @module The recall benchmarks' service: LoCoMo conversations saved through the HTTP API as a client would
 * (each session in order, a recent window re-sent every two turns, the session's real date as `ts`), one bot
 * per conversation, product defaults throughout, and a wait until every message is in a stored chunk.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryPoolClient } from '../../src/client/memory-pool-client.js';
import { configSchema } from '../../src/config/config-schema.js';
import type { MemoryPoolConfig } from '../../src/config/config-types.js';
import { CachedEmbedder } from '../../src/embedding/cached-embedder.js';
import { createEmbedder } from '../../src/embedding/create-embedder.js';
import type { Embedder } from '../../src/embedding/embedder.js';
import { createLogger } from '../../src/logging/logger.js';
import { type MemoryService, startMemoryService } from '../../src/service/start-memory-service.js';
import type { LocomoConversation } from './locomo-dataset.js';

/** A client re-sends its recent window: the last WINDOW turns, after every STEP new turns. */
const WINDOW = 10;
const STEP = 2;
/** Turns within a session are this far apart (LoCoMo dates sessions, not turns). */
export const TURN_SPACING_MS = 30_000;

export interface LocomoService {
  readonly service: MemoryService;
  readonly client: MemoryPoolClient;
  readonly config: MemoryPoolConfig;
  readonly embedder: Embedder;
  /** `bot/diaId` → the turn's `ts`. */
  readonly tsById: Map<string, number>;
  /** Stops the service and removes its scratch folder. */
  close(): Promise<void>;
}

/** The bot settings given are not valid config (e.g. chunk sizes from the command line). */
export class BadBotSettings extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
  }
}

/** The bot a conversation is saved to. */
export const botName = (c: LocomoConversation) => `locomo-${c.sampleId.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** Where a service keeps its data: a scratch folder removed on close, or a kept one (`--keep DIR`). */
export interface LocomoPlace {
  /** A folder to store into and keep; a later run with the same folder finds the conversations stored. */
  readonly keep?: string;
}

/** Starts a service with one bot per conversation (`bot` settings added to each, e.g. chunk sizes), and the
 * `embedding` section when given (another offline model). */
export async function startLocomoService(
  conversations: readonly LocomoConversation[],
  bot: Record<string, unknown> = {},
  embedding?: Record<string, unknown>,
  place: LocomoPlace = {},
): Promise<LocomoService> {
  const kept = place.keep;
  if (kept !== undefined) mkdirSync(kept, { recursive: true });
  const dir = kept ?? mkdtempSync(join(tmpdir(), 'memory-pool-locomo-'));
  const bots = conversations.map((c) => [
    botName(c),
    { selfSpeaker: c.speakerB, collection: `mem_${botName(c).replace(/-/g, '_')}`, ...bot },
  ]);
  // The schema applies the product's defaults; only the places (free ports, a scratch folder) differ.
  const checked = configSchema.safeParse({
    ...(embedding === undefined ? {} : { embedding }),
    bots: Object.fromEntries(bots),
  });
  if (!checked.success) {
    if (kept === undefined) rmSync(dir, { recursive: true, force: true });
    const problems = checked.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new BadBotSettings(problems);
  }
  const config: MemoryPoolConfig = {
    ...checked.data,
    listen: { host: '127.0.0.1', port: 0 },
    store: { kind: 'embedded', path: join(dir, 'qdrant'), host: '127.0.0.1', port: 0 },
    dataDir: join(dir, 'service'),
  };
  const logger = createLogger({ level: 'silent' });
  const embedder = createEmbedder(config.embedding, { logger });
  const service = await startMemoryService({
    config,
    embedder,
    queryEmbedder: new CachedEmbedder(embedder),
    logger,
  });
  const client = new MemoryPoolClient({ baseUrl: service.url, timeoutMs: 30_000 });
  const close = async () => {
    await service.close();
    if (kept === undefined) rmSync(dir, { recursive: true, force: true });
  };
  return { service, client, config, embedder, tsById: new Map(), close };
}

/** Whether a kept folder already holds what a run stored (written once every bot was drained). */
export const isStored = (keep: string) => existsSync(join(keep, STORED_MARK));
/** The file that marks a kept folder as complete. */
export const STORED_MARK = 'stored.json';

/** Records each turn's `ts` as ingestConversation would, without saving anything (a kept folder's run). */
export function recordTurnTimes(locomo: LocomoService, conversation: LocomoConversation): void {
  const bot = botName(conversation);
  for (const session of conversation.sessions) {
    session.turns.forEach((turn, i) => {
      locomo.tsById.set(`${bot}/${turn.diaId}`, session.startMs + i * TURN_SPACING_MS);
    });
  }
}

/** Saves one conversation session by session, re-sending a recent window as chat clients do. */
export async function ingestConversation(
  locomo: LocomoService,
  conversation: LocomoConversation,
): Promise<void> {
  const bot = botName(conversation);
  for (const session of conversation.sessions) {
    const messages = session.turns.map((turn, i) => {
      const ts = session.startMs + i * TURN_SPACING_MS;
      locomo.tsById.set(`${bot}/${turn.diaId}`, ts);
      // speaker_b is the agent (`self`), speaker_a the person: the product's shape, one agent and one user.
      return turn.speaker === conversation.speakerB
        ? { speaker_kind: 'self' as const, text: turn.text, message_id: turn.diaId, ts }
        : {
            speaker_kind: 'user' as const,
            text: turn.text,
            message_id: turn.diaId,
            ts,
            speaker_name: turn.speaker,
            user_id: `locomo:${turn.speaker}`,
          };
    });
    for (let end = Math.min(STEP, messages.length); ; end = Math.min(end + STEP, messages.length)) {
      await locomo.client.save({
        bot,
        source: 'bench',
        messages: messages.slice(Math.max(0, end - WINDOW), end),
      });
      if (end === messages.length) break;
    }
  }
}

/** Waits until every accepted message of `bot` is in a stored chunk; returns the chunks stored. */
export async function drainBot(locomo: LocomoService, bot: string, timeoutMs: number): Promise<number> {
  // The deadline counts from the last progress: on a loaded machine writing (embedding) takes long, not forever.
  let deadline = Date.now() + timeoutMs;
  let pending = Number.POSITIVE_INFINITY;
  for (;;) {
    const stats = await locomo.client.stats(bot);
    if (stats.messages.pending === 0) return stats.chunks.stored;
    if (stats.messages.pending < pending) {
      pending = stats.messages.pending;
      deadline = Date.now() + timeoutMs;
    }
    if (Date.now() > deadline) throw new Error(`${bot}: ${stats.messages.pending} messages still pending`);
    await new Promise((done) => setTimeout(done, 250));
  }
}
