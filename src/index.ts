/** @module memory-pool's public API: every exported name is listed here, and index.test.ts pins the list. */
export type { ErrorResponse } from './api/error-response.js';
export { forgetRequestSchema } from './api/forget-request.js';
export type { ForgetLogEntry, ForgetRequest, ForgetResponse } from './api/forget-request.js';
export { retrieveRequestSchema } from './api/retrieve-request.js';
export type { RetrieveHit, RetrieveRequest, RetrieveResponse } from './api/retrieve-request.js';
export { saveMessageSchema, saveRequestSchema } from './api/save-request.js';
export type { SaveMessage, SaveRequest, SaveResponse } from './api/save-request.js';
export type { BotStatsResponse } from './api/stats-response.js';
export { MemoryPoolClient } from './client/memory-pool-client.js';
export type {
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
