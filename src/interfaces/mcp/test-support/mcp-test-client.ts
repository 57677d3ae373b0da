/**
 * @module The MCP tests' client: the SDK's client connected to memory-pool's MCP server in process (over the SDK's
 * in-memory transport) or to a service's `/mcp` (streamable HTTP, with a key), and the text of a tool's answer.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '../create-mcp-server.js';
import type { MemoryBackend } from '../memory-backend.js';

/** A client of an MCP server over `backend` in this process (as `memory-pool mcp` runs it, without stdio). */
export async function connectInProcess(backend: MemoryBackend, defaultBot?: string): Promise<Client> {
  const server = createMcpServer({ backend, ...(defaultBot === undefined ? {} : { defaultBot }) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

/** A client of the service at `url`'s `/mcp`, calling with `key` (undefined: none). */
export async function connectOverHttp(url: string, key?: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  const headers: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }),
  );
  return client;
}

/** The text of a tool's answer (its first content item), '' when it has none. */
export function textOf(result: unknown): string {
  const first = (result as CallToolResult).content[0];
  return first?.type === 'text' ? first.text : '';
}
