/**
 * @module What the faces (HTTP routes, and through them MCP) need from the assembled service: the config
 * they read at registration, metrics, logs, readiness and the one set of operations. Nothing here reaches
 * the store or the journal directly.
 */
import type { LiveApiKeys } from '../auth/live-api-keys.js';
import type { MemoryPoolConfig } from '../config/config-types.js';
import type { RenameProgress } from '../journal/journal-renames.js';
import type { Logger } from '../logging/logger.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { ReadinessCheck } from '../wire/service-status.js';
import type { MemoryOperations } from './operations/memory-operations.js';

export type { ReadinessCheck };

export interface ServiceDeps {
  readonly config: MemoryPoolConfig;
  /** The API keys requests are checked against now: `config.apiKeys` at start, then each reload's. */
  readonly apiKeys: LiveApiKeys;
  readonly metrics: ServiceMetrics;
  readonly logger: Logger;
  readonly operations: MemoryOperations;
  checkReadiness(): Promise<Record<string, ReadinessCheck>>;
  /**
   * The rename passes running (for /ready): never rejects, an unreadable journal answers none (its check says
   * why). Absent: none.
   */
  readRenaming?(): Promise<readonly RenameProgress[]>;
}
