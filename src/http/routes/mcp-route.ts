/** @module `/mcp` inside the service: MCP over streamable HTTP (stateless), its tools served by the service's operations. */
import type { Hono } from 'hono';
import { isJsonMediaType } from '../json-media-type.js';
import { MAX_JSON_DEPTH, readBodyText } from '../read-json-body.js';
import { findTooDeep } from '../../runtime/find-too-deep.js';
import type { ServiceDeps } from '../../core/service-deps.js';
import type { ServiceEnv } from '../service-env.js';
import { createOperationsBackend } from '../../interfaces/mcp/operations-backend.js';

/**
 * The MCP SDK, loaded on the first /mcp call: it is the heaviest import of the HTTP app (~0.3 s of start-up
 * for every service and every in-process test that never speaks MCP).
 */
const importMcp = () =>
  Promise.all([
    import('../../interfaces/mcp/create-mcp-server.js'),
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
  ]);
let loadingMcp: ReturnType<typeof importMcp> | undefined;
const loadMcp = () => {
  loadingMcp ??= importMcp();
  return loadingMcp;
};

/** A JSON-RPC error answer with no id, as the SDK's transport writes its own (`-32700` is a parse error). */
const jsonRpcError = (message: string) => ({ jsonrpc: '2.0', error: { code: -32700, message }, id: null });

/** Registers `/mcp`: POST carries calls; GET and DELETE answer 405. Auth runs first like any route. */
export function registerMcpRoutes(app: Hono<ServiceEnv>, deps: ServiceDeps): void {
  const bots = Object.keys(deps.config.bots);
  // With one bot configured, tools need not name it.
  const defaultBot = bots.length === 1 ? bots[0] : undefined;

  // Stateless mode has no server-initiated stream to GET and no session to DELETE; the spec's answer is 405.
  app.on(['GET', 'DELETE'], '/mcp', (c) =>
    c.json(
      {
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed: POST MCP messages to /mcp' },
        id: null,
      },
      405,
      {
        allow: 'POST',
      },
    ),
  );

  app.post('/mcp', async (c) => {
    // The tools call the operations with the caller's own principal, and their requests are validated by the
    // wire schemas, so scopes and validation are exactly those of the HTTP API.
    const backend = createOperationsBackend({
      operations: deps.operations,
      principal: c.get('principal'),
      checkReadiness: () => deps.checkReadiness(),
      ...(deps.readRenaming === undefined ? {} : { readRenaming: () => deps.readRenaming!() }),
      logger: deps.logger,
    });
    const [{ createMcpServer }, { WebStandardStreamableHTTPServerTransport }] = await loadMcp();
    const server = createMcpServer({ backend, bots, ...(defaultBot === undefined ? {} : { defaultBot }) });
    // Stateless: a fresh transport per request (the SDK forbids reusing one), and JSON answers instead of SSE.
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    // The body is parsed here rather than by the SDK so that, like every JSON route, it is refused before
    // parsing when it nests too deep. A non-JSON content type is left to the SDK, which answers 415.
    let parsedBody: unknown;
    if (isJsonMediaType(c.req.header('content-type'))) {
      const text = await readBodyText(c);
      if (findTooDeep(text, MAX_JSON_DEPTH) >= 0) {
        return c.json(jsonRpcError(`Parse error: JSON nested more than ${MAX_JSON_DEPTH} levels deep`), 400);
      }
      try {
        parsedBody = JSON.parse(text);
      } catch {
        return c.json(jsonRpcError('Parse error: Invalid JSON'), 400);
      }
    }
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw, parsedBody === undefined ? undefined : { parsedBody });
    } finally {
      await server.close();
    }
  });
}
