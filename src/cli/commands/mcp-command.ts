/** @module `memory-pool mcp`: an MCP stdio server that forwards to a running memory service over HTTP. */
import type { Command } from 'commander';

interface McpOptions {
  url: string;
  apiKey?: string;
  bot?: string;
  timeoutMs: string;
}

/** Empty environment strings count as unset (conventions: `FOO= memory-pool mcp` must not mean an empty key). */
const readEnv = (name: string): string | undefined => process.env[name]?.trim() || undefined;

async function runMcp(options: McpOptions): Promise<void> {
  // Loaded on use, so `memory-pool --help` does not pay for the MCP SDK.
  const [{ MemoryPoolClient }, { createMcpServer }, { StdioServerTransport }] = await Promise.all([
    import('../../client/memory-pool-client.js'),
    import('../../interfaces/mcp/create-mcp-server.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
  ]);
  const timeoutMs = Number(options.timeoutMs);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
    process.stderr.write(
      `error: --timeout-ms: expected a positive whole number of milliseconds, got "${options.timeoutMs}"\n`,
    );
    process.exitCode = 1;
    return;
  }
  let backend: InstanceType<typeof MemoryPoolClient>;
  try {
    backend = new MemoryPoolClient({
      baseUrl: options.url,
      timeoutMs,
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    });
  } catch (error) {
    process.stderr.write(`error: --url: ${(error as Error).message}\n`);
    process.exitCode = 1;
    return;
  }
  const server = createMcpServer({ backend, ...(options.bot ? { defaultBot: options.bot } : {}) });
  // stdout carries the protocol: anything human-readable goes to stderr.
  await server.connect(new StdioServerTransport());
  process.stderr.write(`memory-pool mcp: serving on stdio, forwarding to ${options.url}\n`);
}

/** Registers `memory-pool mcp [--url U] [--api-key K] [--bot B]`; it never opens the store itself. */
export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description(
      'Run an MCP server on stdio (for Claude Desktop, Cursor, ...) that uses a running memory-pool service',
    )
    .option(
      '--url <url>',
      'memory-pool service URL (env MEMORY_POOL_URL)',
      readEnv('MEMORY_POOL_URL') ?? 'http://127.0.0.1:3102',
    )
    .option(
      '--api-key <key>',
      'API key, when the service has keys configured (env MEMORY_POOL_API_KEY)',
      readEnv('MEMORY_POOL_API_KEY'),
    )
    .option(
      '--bot <name>',
      'bot the tools use when a call names none (env MEMORY_POOL_BOT)',
      readEnv('MEMORY_POOL_BOT'),
    )
    // Longer than the client's 3 s default: an agent can wait for a slow embedding provider, a chat bot cannot.
    .option('--timeout-ms <ms>', 'per-request time limit for calls to the service', '15000')
    .action((options: McpOptions) => runMcp(options));
}
