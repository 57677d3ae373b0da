/** @module Runs one MCP tool body, turning failures into error results the model can read. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MemoryPoolApiError } from '../../client/memory-pool-client-errors.js';
import { isMemoryPoolError } from '../../errors/memory-pool-error.js';

/** Failures become tool results with `isError`, so the model reads what went wrong instead of a protocol error. */
export async function runTool(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    // The service's refusals (over HTTP) and the tool's own checks of its arguments read alike.
    const text =
      error instanceof MemoryPoolApiError || isMemoryPoolError(error)
        ? `memory-pool refused (${error.code}${error.field ? `, field ${error.field}` : ''}): ${error.message}`
        : `memory-pool failed: ${(error as Error).message}`;
    return { isError: true, content: [{ type: 'text', text }] };
  }
}
