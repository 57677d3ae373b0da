/**
 * @module Without API keys the service trusts whoever reaches it on loopback. A web page can still reach
 * loopback through the browser (DNS rebinding: its own host name resolving to 127.0.0.1), so without keys
 * only loopback host names and origins are served. `Origin: null` (sandboxed iframes, `data:` and `file:`
 * pages) is a browser page too, of unknown origin, so it is refused as well.
 */
import type { MiddlewareHandler } from 'hono';
import { isLoopbackHost } from '../runtime/is-loopback-host.js';
import { AuthError } from '../errors/memory-pool-error.js';

/** The host name of a `Host` header value (`[::1]:3102` → `::1`). */
function hostNameOf(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(1, hostHeader.indexOf(']'));
  return hostHeader.split(':')[0] ?? '';
}

/** 403 for a `Host` or `Origin` that is not loopback (`null` included); requests without them (in-process calls) pass. */
export function guardLoopbackHosts(): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header('host');
    if (host !== undefined && !isLoopbackHost(hostNameOf(host))) {
      throw new AuthError(
        'forbidden',
        `requests for host "${host}" are refused: without API keys memory-pool only answers loopback names (127.0.0.1, localhost). Configure apiKeys to serve other names`,
      );
    }
    const origin = c.req.header('origin');
    if (origin === 'null') {
      throw new AuthError(
        'forbidden',
        'requests from a page with the opaque origin "null" (a sandboxed iframe, a data: or file: page) are refused: without API keys a browser page must not reach your memories',
      );
    }
    if (origin !== undefined) {
      let originHost: string;
      try {
        originHost = new URL(origin).hostname;
      } catch {
        originHost = origin;
      }
      if (!isLoopbackHost(originHost)) {
        throw new AuthError(
          'forbidden',
          `requests from the web origin "${origin}" are refused: without API keys a browser page must not reach your memories`,
        );
      }
    }
    await next();
  };
}
