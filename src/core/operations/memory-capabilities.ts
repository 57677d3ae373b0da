/**
 * @module What the operations call below them, assembled once (src/core/assemble-service.ts): recall,
 * forgetting and the viewer's backend, each already bound to the store, journal and writer.
 */
import type { ForgetPermissions } from '../../auth/forget-permissions.js';
import type { BotConfig } from '../../config/config-types.js';
import type { RecallAsker } from '../../retrieval/retrieve-memories.js';
import type { ViewerBackend } from '../../viewer/viewer-backend.js';
import type { ForgetRequest, ForgetResponse } from '../../wire/forget-request.js';
import type { RetrieveRequest, RetrieveResponse } from '../../wire/retrieve-request.js';

export interface MemoryCapabilities {
  /** Recall on `bot.collection` (the live one) with the query embedder of its model. */
  /** `asker`: who asks, so a DM recall widens to a person's DMs only for their own DM (see retrieve-memories). */
  retrieve(
    bot: BotConfig,
    request: RetrieveRequest,
    signal?: AbortSignal,
    asker?: RecallAsker,
  ): Promise<RetrieveResponse>;
  /** Forgets within `permissions` (`bot.collection` is the live one). */
  forget(bot: BotConfig, request: ForgetRequest, permissions: ForgetPermissions): Promise<ForgetResponse>;
  readonly viewerBackend: ViewerBackend;
}
