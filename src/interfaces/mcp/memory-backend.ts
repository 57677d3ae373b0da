/** @module What the MCP server needs from memory-pool: the slice of MemoryPoolClient its tools and resources call. */
import type { MemoryPoolClient } from '../../client/memory-pool-client.js';

/** MemoryPoolClient satisfies this; the service's own /mcp route passes one that calls the app in-process. */
export type MemoryBackend = Pick<
  MemoryPoolClient,
  'save' | 'retrieve' | 'forget' | 'stats' | 'health' | 'ready' | 'createLinkCode' | 'redeemLinkCode'
>;
