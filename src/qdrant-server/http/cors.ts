/**
 * @module CORS as Qdrant's actix-cors default (`allow_any_origin/method/header`, qdrant-subset.md §0.4): the Origin is
 * echoed, never `*`; no Max-Age or credentials. It sits outside auth, so preflights need no key and 401/403 carry it.
 */
import type { MiddlewareHandler } from 'hono';

/** actix-cors lists every method it knows when any method is allowed. */
const ALL_METHODS = 'GET, POST, PUT, DELETE, HEAD, OPTIONS, CONNECT, PATCH, TRACE';
const VARY = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';

/** Answers preflights and adds the echoed Allow-Origin and Vary headers to every response of a cross-origin request. */
export function corsMiddleware(): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (origin === undefined) return next();
    const requestedMethod = c.req.header('access-control-request-method');
    if (c.req.method === 'OPTIONS' && requestedMethod !== undefined) {
      const headers = new Headers({
        'access-control-allow-origin': origin,
        'access-control-allow-methods': ALL_METHODS,
        vary: VARY,
      });
      const requestedHeaders = c.req.header('access-control-request-headers');
      if (requestedHeaders !== undefined) headers.set('access-control-allow-headers', requestedHeaders);
      return new Response(null, { status: 200, headers });
    }
    await next();
    c.res.headers.set('access-control-allow-origin', origin);
    c.res.headers.set('vary', VARY);
  };
}
