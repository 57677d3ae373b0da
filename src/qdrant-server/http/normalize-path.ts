/** @module actix's `NormalizePath::trim()`: repeated slashes merge and a trailing slash is dropped before routing. */

/** The request's path, normalized; the query string is not part of it. */
export function normalizePath(request: Request): string {
  const url = request.url;
  const start = url.indexOf('/', url.indexOf('://') + 3);
  if (start === -1) return '/';
  const queryAt = url.indexOf('?', start);
  const raw = queryAt === -1 ? url.slice(start) : url.slice(start, queryAt);
  const merged = raw.replace(/\/{2,}/g, '/');
  return merged.length > 1 && merged.endsWith('/') ? merged.slice(0, -1) : merged;
}
