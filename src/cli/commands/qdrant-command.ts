/** @module `memory-pool qdrant`: runs the embedded Qdrant-compatible store alone, for SillyTavern or any Qdrant client. */
import { type Command, InvalidArgumentError } from 'commander';
import { createLogger, type LogFormat } from '../../logging/logger.js';
import { isLoopbackHost } from '../../runtime/is-loopback-host.js';
import { readEnv } from '../../runtime/read-env.js';
import { closeOnSignal } from '../close-on-signal.js';
import { logFormatOption } from '../log-format-option.js';

interface QdrantCommandOptions {
  data: string;
  host: string;
  port: number;
  apiKey?: string;
  readOnlyApiKey?: string;
  corsOrigin: string[];
  logFormat?: LogFormat;
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535) {
    throw new InvalidArgumentError('expected a port number from 0 to 65535 (0 picks a free port).');
  }
  return port;
}

/** Collects each `--cors-origin`, refusing anything that is not `scheme://host[:port]`. */
function collectOrigin(text: string, previous: string[]): string[] {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url === undefined || !/^https?:$/.test(url.protocol) || url.pathname !== '/' || url.search !== '') {
    throw new InvalidArgumentError(
      'expected a web origin such as http://192.168.1.5:8000 (scheme, host, port).',
    );
  }
  return [...previous, url.origin];
}

/** Empty strings count as unset, so `KEY= memory-pool qdrant` does not switch auth on with an empty key. */
function readSetting(flag: string | undefined, envName: string): string | undefined {
  if (flag !== undefined) return flag === '' ? undefined : flag;
  return readEnv(process.env, envName);
}

/** Reports a start-up problem without the usage text: the options parsed fine, the setup is what needs fixing. */
function fail(message: string): void {
  process.stderr.write(`${message}\n`);
  process.exitCode = 1;
}

async function runQdrant(options: QdrantCommandOptions): Promise<void> {
  const apiKey = readSetting(options.apiKey, 'MEMORY_POOL_QDRANT_API_KEY');
  const readOnlyApiKey = readSetting(options.readOnlyApiKey, 'MEMORY_POOL_QDRANT_READ_ONLY_API_KEY');
  if (!isLoopbackHost(options.host) && apiKey === undefined && readOnlyApiKey === undefined) {
    return fail(
      `error: refusing to listen on ${options.host} without an API key, since anyone who can reach it could read ` +
        'and change every memory. Set --api-key <key> (or MEMORY_POOL_QDRANT_API_KEY), ' +
        'or listen on loopback only with --host 127.0.0.1.',
    );
  }
  const logger = createLogger({
    name: 'memory-pool-qdrant',
    ...(options.logFormat === undefined ? {} : { format: options.logFormat }),
  });
  // Loaded here so that other commands (and --help) do not open SQLite or usearch.
  const { startQdrantServer } = await import('../../qdrant-server/http/server.js');
  let server: Awaited<ReturnType<typeof startQdrantServer>>;
  try {
    server = await startQdrantServer({
      dataDir: options.data,
      host: options.host,
      port: options.port,
      apiKey,
      readOnlyApiKey,
      corsOrigins: options.corsOrigin,
      logger,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const hint = code === 'EADDRINUSE' ? ` Port ${options.port} is taken: choose another with --port.` : '';
    return fail(`error: could not start the embedded store: ${(error as Error).message}.${hint}`);
  }
  logger.info(
    { url: server.url, dataDir: options.data, auth: apiKey !== undefined || readOnlyApiKey !== undefined },
    `embedded Qdrant-compatible store listening on ${server.url}`,
  );
  closeOnSignal(logger, 'the embedded store', () => server.close());
}

/** Registers `memory-pool qdrant --data DIR --port P [--host H] [--api-key K] [--read-only-api-key K] [--cors-origin O]...`. */
export function registerQdrantCommand(program: Command): void {
  program
    .command('qdrant')
    .description('Run the embedded Qdrant-compatible store alone (speaks the Qdrant REST API)')
    .option('--data <dir>', "folder for the store's data", './data/qdrant')
    .option('--host <host>', 'address to listen on; anything but loopback needs an API key', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', parsePort, 6333)
    .option('--api-key <key>', 'key clients send as `api-key` (env MEMORY_POOL_QDRANT_API_KEY)')
    .option('--read-only-api-key <key>', 'key that may only read (env MEMORY_POOL_QDRANT_READ_ONLY_API_KEY)')
    .option(
      '--cors-origin <origin>',
      'without an API key, a web origin besides localhost ones that may call the store from a browser (repeatable)',
      collectOrigin,
      [],
    )
    .addOption(logFormatOption())
    .action((options: QdrantCommandOptions) => runQdrant(options));
}
