/**
 * @module Without an API key the embedded store trusts whoever reaches it on loopback, so it must not be reachable
 * by web pages: any site open in the user's browser could otherwise read, rewrite or erase every memory through
 * CORS, or through DNS rebinding (its own host name resolving to 127.0.0.1). Without a key only loopback `Host`
 * names and loopback (or configured) origins are served; everything else is Qdrant's 403 envelope.
 */
import type { MiddlewareHandler } from 'hono';
import { isLoopbackHost } from '../../runtime/is-loopback-host.js';
import { forbidden } from '../qdrant-error.js';

/** `scheme://host[:port]` of an http(s) origin as browsers send it, or undefined when `text` is not one. */
export function parseWebOrigin(text: string): string | undefined {
  if (!URL.canParse(text)) return undefined;
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') return undefined;
  if (url.pathname !== '/') return undefined;
  return url.origin;
}

/** The host name of a `Host` header value (`[::1]:6333` → `::1`). */
function hostNameOf(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(1, hostHeader.indexOf(']'));
  return hostHeader.split(':')[0] ?? '';
}

function isAllowedOrigin(origin: string, extra: ReadonlySet<string>): boolean {
  const parsed = parseWebOrigin(origin);
  if (parsed === undefined) return false;
  return extra.has(parsed) || isLoopbackHost(new URL(parsed).hostname);
}

/**
 * 403 for a non-loopback `Host` and for an `Origin` that is neither loopback nor in `corsOrigins`; `Origin: null`
 * (sandboxed frames, `file:` and `data:` pages) is refused too. Requests without the headers (in-process calls,
 * non-browser clients that send no Origin) pass. Preflights are refused the same way, so the browser never
 * gets an Allow-Origin for a foreign page.
 */
export function guardOrigins(corsOrigins: readonly string[]): MiddlewareHandler {
  const extra = new Set(
    corsOrigins.map((origin) => {
      const parsed = parseWebOrigin(origin);
      if (parsed === undefined)
        throw new Error(`"${origin}" is not a web origin such as http://localhost:8000`);
      return parsed;
    }),
  );
  return async (c, next) => {
    const host = c.req.header('host');
    if (host !== undefined && !isLoopbackHost(hostNameOf(host))) {
      throw forbidden(
        `requests for host "${host}" are refused: without an API key the embedded store only answers loopback names (127.0.0.1, localhost). Set an API key to serve other names`,
      );
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && !isAllowedOrigin(origin, extra)) {
      throw forbidden(
        `requests from the web origin "${origin}" are refused: without an API key a browser page must not reach your memories. Add the origin to store.embedded.corsOrigins (memory-pool qdrant --cors-origin), or set an API key`,
      );
    }
    await next();
  };
}
