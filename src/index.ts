/** @module memory-pool's public API: every exported name is listed here, and index.test.ts pins the list. */
export type { ErrorResponse } from './wire/error-response.js';
export { forgetRequestSchema } from './wire/forget-request.js';
export type { ForgetLogEntry, ForgetRequest, ForgetResponse } from './wire/forget-request.js';
export { retrieveRequestSchema } from './wire/retrieve-request.js';
export type { RetrieveHit, RetrieveRequest, RetrieveResponse } from './wire/retrieve-request.js';
export { saveMessageSchema, saveRequestSchema } from './wire/save-request.js';
export type { SaveMessage, SaveRequest, SaveResponse } from './wire/save-request.js';
export type { BotStatsResponse } from './wire/stats-response.js';
export { MemoryPoolClient } from './client/memory-pool-client.js';
export type {
  CallOptions,
  ForgetLogQuery,
  ForgetLogResponse,
  HealthResponse,
  MemoryPoolClientOptions,
  ReadyResponse,
} from './client/memory-pool-client.js';
export {
  MemoryPoolApiError,
  MemoryPoolNetworkError,
  MemoryPoolTimeoutError,
} from './client/memory-pool-client-errors.js';
export type { FetchLike } from './client/send-request.js';
export type { ErrorCode } from './errors/memory-pool-error.js';
export { createMcpServer } from './interfaces/mcp/create-mcp-server.js';
export type { CreateMcpServerOptions } from './interfaces/mcp/create-mcp-server.js';
export type { MemoryBackend } from './interfaces/mcp/memory-backend.js';
