/** @module `memory-pool mcp`: an MCP stdio server that forwards to a running memory service over HTTP. */
import type { Command } from 'commander';
import type { MemoryPoolConfig } from '../../config/config-types.js';
import { loadConfig } from '../../config/load-config.js';
import { isMemoryPoolError } from '../../errors/memory-pool-error.js';
import { formatHttpUrl } from '../../runtime/format-http-url.js';
import { readEnv as readEnvFrom } from '../../runtime/read-env.js';

interface McpOptions {
  config?: string;
  url?: string;
  apiKey?: string;
  bot?: string;
  timeoutMs: string;
}

/** Empty environment strings count as unset (conventions: `FOO= memory-pool mcp` must not mean an empty key). */
const readEnv = (name: string): string | undefined => readEnvFrom(process.env, name);

const fail = (message: string): void => {
  process.stderr.write(`error: ${message}\n`);
  process.exitCode = 1;
};

/** The service's own address from its config; a wildcard listen address is reached on loopback. */
function serviceUrlOf(config: MemoryPoolConfig): string {
  const { host, port } = config.listen;
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return formatHttpUrl(reachable, port);
}

async function runMcp(options: McpOptions): Promise<void> {
  if (options.config !== undefined && options.url !== undefined) {
    return fail('--config and --url both say where the service is: pass one of them');
  }
  let bots: string[] | undefined;
  let url = options.url ?? readEnv('MEMORY_POOL_URL') ?? 'http://127.0.0.1:3102';
  if (options.config !== undefined) {
    try {
      const config = loadConfig({ configPath: options.config });
      url = serviceUrlOf(config);
      bots = Object.keys(config.bots);
    } catch (error) {
      return fail(isMemoryPoolError(error) ? error.message : String(error));
    }
  }
  const timeoutMs = Number(options.timeoutMs);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
    return fail(`--timeout-ms: expected a positive whole number of milliseconds, got "${options.timeoutMs}"`);
  }
  // Read here, not as commander defaults, which `--help` would print.
  const apiKey = options.apiKey ?? readEnv('MEMORY_POOL_API_KEY');
  const defaultBot = options.bot ?? readEnv('MEMORY_POOL_BOT') ?? (bots?.length === 1 ? bots[0] : undefined);

  // Loaded on use, so `memory-pool --help` does not pay for the MCP SDK.
  const [{ MemoryPoolClient }, { createMcpServer }, { StdioServerTransport }] = await Promise.all([
    import('../../client/memory-pool-client.js'),
    import('../../interfaces/mcp/create-mcp-server.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
  ]);
  let backend: InstanceType<typeof MemoryPoolClient>;
  try {
    backend = new MemoryPoolClient({ baseUrl: url, timeoutMs, ...(apiKey ? { apiKey } : {}) });
  } catch (error) {
    return fail(`--url: ${(error as Error).message}`);
  }
  const server = createMcpServer({
    backend,
    ...(defaultBot === undefined ? {} : { defaultBot }),
    ...(bots === undefined ? {} : { bots }),
  });
  // stdout carries the protocol: anything human-readable goes to stderr.
  await server.connect(new StdioServerTransport());
  process.stderr.write(`memory-pool mcp: serving on stdio, forwarding to ${url}\n`);
}

/** Registers `memory-pool mcp [--config F | --url U] [--api-key K] [--bot B]`; it never opens the store itself. */
export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description(
      'Run an MCP server on stdio (for Claude Desktop, Cursor, ...) that uses a running memory-pool service',
    )
    .option('-c, --config <file>', "the service's config: its listen address and bots")
    .option('--url <url>', 'memory-pool service URL (env MEMORY_POOL_URL; default http://127.0.0.1:3102)')
    .option(
      '--api-key <key>',
      'API key when the service has keys (prefer env MEMORY_POOL_API_KEY: flags show in ps)',
    )
    .option('--bot <name>', 'bot the tools use when a call names none (env MEMORY_POOL_BOT)')
    // Longer than the client's 3 s default: an agent can wait for a slow embedding provider, a chat bot cannot.
    .option('--timeout-ms <ms>', 'per-request time limit for calls to the service', '15000')
    .action((options: McpOptions) => runMcp(options));
}
