/** @module What the service's HTTP layer needs from the rest of the service. */
import type { ForgetRequest, ForgetResponse } from '../wire/forget-request.js';
import type { RetrieveRequest, RetrieveResponse } from '../wire/retrieve-request.js';
import type { BotConfig, MemoryPoolConfig } from '../config/config-types.js';
import type { MessageJournal } from '../journal/message-journal.js';
import type { Logger } from '../logging/logger.js';
import type { PointStore } from '../store/point-store.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { Principal } from '../auth/api-key-auth.js';
import type { ForgetPermissions } from '../auth/forget-permissions.js';

import type { ReadinessCheck } from '../wire/service-status.js';
import type { ViewerBackend } from '../viewer/viewer-backend.js';

export type { ReadinessCheck };

export interface ServiceDeps {
  readonly config: MemoryPoolConfig;
  readonly journal: MessageJournal;
  readonly metrics: ServiceMetrics;
  readonly logger: Logger;
  /** The vector store, for counts (stats); memory reads and writes go through retrieve, forget and the writer. */
  readonly store: PointStore;
  /** Tells the chunk writer new messages are waiting. */
  wakeWriter(): void;
  retrieve(bot: BotConfig, request: RetrieveRequest, signal?: AbortSignal): Promise<RetrieveResponse>;
  /** Forgets within `permissions`, narrowed from the caller's key by the route. */
  forget(bot: BotConfig, request: ForgetRequest, permissions: ForgetPermissions): Promise<ForgetResponse>;
  checkReadiness(): Promise<Record<string, ReadinessCheck>>;
  /** The memory viewer's timeline, point reads and SillyTavern point edits. */
  readonly viewer: ViewerBackend;
}

/** Hono variables set by middleware. */
export interface ServiceEnv {
  Variables: { principal: Principal };
}
