/** @module What every /memory handler is given: the memory, the persisted choices, the recorder's rules. */
import type { DiscordConfig } from '../../../config/config-types.js';
import type { Logger } from '../../../logging/logger.js';
import type { DiscordMemory } from '../discord-memory.js';
import type { DiscordState } from '../discord-state.js';
import type { RecordingRules } from '../recording-rules.js';
import type { LinkCodeWatches } from './link-code-watches.js';

export interface CommandContext {
  readonly memory: DiscordMemory;
  readonly state: DiscordState;
  readonly config: DiscordConfig;
  readonly logger: Logger;
  /** The recorder's rules in force, for answers that say whether a place is recorded. */
  readonly rules: () => RecordingRules;
  /** A channel and its threads (cached, or recorded from before): what forgetting the channel covers. */
  readonly channelWithThreads: (channelId: string) => readonly string[];
  /** Follows the codes `/memory link` gave, to tell their askers when one is said (link-code-watches.ts). */
  readonly linkCodes: LinkCodeWatches;
  /** Back-fills a channel just allowed, on first sight when `backfill` is set; whether it was queued. */
  readonly backfillChannel: (channelId: string) => boolean;
}
