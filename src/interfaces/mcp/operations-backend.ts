/**
 * @module The MCP server's backend inside `memory-pool serve`: the service's own operations, called with the
 * caller's principal (the key presented to `/mcp`) instead of a loop back through in-process HTTP. Each
 * request is validated against its wire schema first, so a tool's call answers as the HTTP API would.
 */
import type { Principal } from '../../auth/api-key-auth.js';
import type { MemoryOperations } from '../../core/operations/memory-operations.js';
import { showReadiness } from '../../core/operations/show-readiness.js';
import { toServiceFailure } from '../../core/operations/to-service-failure.js';
import type { Logger } from '../../logging/logger.js';
import { forgetRequestSchema } from '../../wire/forget-request.js';
import { parseWireRequest } from '../../wire/parse-wire-request.js';
import { accountRequestSchema, redeemLinkCodeSchema } from '../../wire/people.js';
import { retrieveRequestSchema } from '../../wire/retrieve-request.js';
import { saveRequestSchema } from '../../wire/save-request.js';
import type { ReadinessCheck, ReadyResponse } from '../../wire/service-status.js';
import type { MemoryBackend } from './memory-backend.js';

export interface OperationsBackendOptions {
  readonly operations: MemoryOperations;
  /** Who called `/mcp`: every tool acts with exactly this key's rights. */
  readonly principal: Principal;
  /** The service's readiness checks, unfiltered: shown to the principal as `GET /ready` would show them. */
  checkReadiness(): Promise<Record<string, ReadinessCheck>>;
  /** The rename passes running, as `GET /ready` shows them (absent: none). */
  readRenaming?(): Promise<Parameters<typeof showReadiness>[2]>;
  /** Where failures are logged, as the HTTP error handler logs them. */
  readonly logger: Logger;
}

/** Runs one backend call; a failure reaches the tool mapped and logged as an HTTP route's would be. */
async function guarded<T>(logger: Logger, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toServiceFailure(error, logger);
  }
}

export function createOperationsBackend(options: OperationsBackendOptions): MemoryBackend {
  const { operations, principal, logger } = options;
  return {
    save: (request) =>
      guarded(logger, async () => {
        const parsed = parseWireRequest(saveRequestSchema, request);
        return operations.save(principal, parsed.bot, parsed);
      }),
    retrieve: (request, call) =>
      guarded(logger, async () => {
        const parsed = parseWireRequest(retrieveRequestSchema, request);
        return operations.retrieve(principal, parsed.bot, parsed, call?.signal);
      }),
    forget: (request) =>
      guarded(logger, async () => {
        const parsed = parseWireRequest(forgetRequestSchema, request);
        return operations.forget(principal, parsed.bot, parsed);
      }),
    stats: (bot) => guarded(logger, () => operations.stats(principal, bot)),
    createLinkCode: (bot, request) =>
      guarded(logger, async () => {
        const parsed = parseWireRequest(accountRequestSchema, request);
        return operations.people.createLinkCode(principal, bot, parsed.account);
      }),
    redeemLinkCode: (bot, request) =>
      guarded(logger, async () =>
        operations.people.redeemLinkCode(principal, bot, parseWireRequest(redeemLinkCodeSchema, request)),
      ),
    // Answering at all is health: the service runs this very code.
    health: async () => ({ status: 'ok' }),
    ready: () =>
      guarded(logger, async (): Promise<ReadyResponse> => {
        const [checks, renames] = await Promise.all([
          options.checkReadiness(),
          options.readRenaming?.() ?? Promise.resolve([]),
        ]);
        return showReadiness(checks, principal, renames);
      }),
  };
}
