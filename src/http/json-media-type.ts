/**
 * @module Whether a `Content-Type` announces JSON. The service's JSON routes insist on it: a browser sends
 * `text/plain`, form types or no type at all without a CORS preflight, so accepting those would let any web
 * page post to a loopback service; a JSON type forces the preflight, which memory-pool never grants.
 */

/** `application/json` or a structured-syntax `application/<name>+json` (RFC 6839), any parameters (charset). */
export function isJsonMediaType(contentType: string | null | undefined): boolean {
  if (!contentType) return false;
  const essence = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return essence === 'application/json' || /^application\/[a-z0-9!#$&^_.-]+\+json$/.test(essence);
}
