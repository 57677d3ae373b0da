/**
 * @module The fault runs' traffic: several bots and sources, two channels each, re-sending their last 20
 * messages every turn from a few concurrent clients until `messages` new messages have been produced.
 * A failed /save (service down, 5xx) is not acknowledged; its messages go again in the next windows.
 */
import { seededRandom } from '../../src/runtime/seeded-random.js';
import { type Acknowledged, Conversation } from '../support/conversation-windows.js';
import { timedPost } from '../support/service-client.js';

export const FAULT_BOTS = { mythos: 'mem_mythos', iris: 'mem_iris' } as const;
const SOURCES = ['discord', 'hermes', 'api'];
const CHANNELS_PER_SOURCE = 2;
const CLIENTS = 4;

/** The `bots:` config section for the fault runs: short idle time, so the writer drains soon after. */
export function faultBotsConfig(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(FAULT_BOTS).map(([bot, collection]) => [
      bot,
      { selfSpeaker: bot === 'mythos' ? 'Mythos' : 'Iris', collection, chunk: { idleMs: 1_000 } },
    ]),
  );
}

export interface IngestProgress {
  /** New messages produced so far (sent at least once, acknowledged or not). */
  produced: number;
  saves: number;
  failedSaves: number;
}

export interface IngestOptions {
  readonly serviceUrl: string;
  readonly messages: number;
  readonly seed: number;
  readonly acknowledged: Acknowledged;
  /** Names this ingest's channels, so two ingests into one service never reuse a message id. */
  readonly label: string;
  /** Pause between a client's turns (to spread the ingest over an outage); default none. */
  readonly pauseMs?: number;
  /** Shared progress, read by a fault injector running alongside. */
  readonly progress?: IngestProgress;
}

/** Runs the ingest to the end; bounded by turns (50 x messages) and never faster than 1 ms a turn on errors. */
export async function runIngest(options: IngestOptions): Promise<IngestProgress> {
  const random = seededRandom(options.seed);
  const progress = options.progress ?? { produced: 0, saves: 0, failedSaves: 0 };
  const conversations = Object.keys(FAULT_BOTS).flatMap((bot) =>
    SOURCES.flatMap((source) =>
      Array.from(
        { length: CHANNELS_PER_SOURCE },
        (_, c) => new Conversation(bot, source, `${options.label}-${bot}-${source}-${c}`, random),
      ),
    ),
  );
  const maxTurns = options.messages * 50;
  let turns = 0;
  const client = async () => {
    // After a failed save the client sends the same window again (as a retrying client would) before
    // moving on, so most produced messages end up acknowledged even with the service down half the time.
    let retry: Conversation | undefined;
    while ((retry !== undefined || progress.produced < options.messages) && turns++ < maxTurns) {
      const conversation = retry ?? conversations[Math.floor(random() * conversations.length)]!;
      const count =
        retry !== undefined
          ? 0
          : Math.min(1 + Math.floor(random() * 3), options.messages - progress.produced);
      progress.produced += count;
      const body = conversation.nextWindow(count);
      const result = await timedPost(`${options.serviceUrl}/save`, body, 5_000);
      progress.saves += 1;
      if (result.status === 200) {
        options.acknowledged.add(body);
        retry = undefined;
      } else {
        progress.failedSaves += 1;
        retry = conversation;
        await new Promise((resolve) => setTimeout(resolve, 100)); // the service is down: do not spin
      }
      if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  // The last windows again, so the newest messages are acknowledged even if their first save failed.
  for (const conversation of conversations) {
    if (conversation.size === 0) continue;
    for (let attempt = 0; attempt < 100; attempt++) {
      const body = conversation.nextWindow(0);
      const result = await timedPost(`${options.serviceUrl}/save`, body, 5_000);
      if (result.status === 200) {
        options.acknowledged.add(body);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return progress;
}
