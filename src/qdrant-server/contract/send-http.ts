/** @module A raw HTTP call the way a browser extension makes it: plain fetch, JSON body, no client library. */

/** What came back: status, headers, the body as text and, when it parses, as JSON. */
export interface HttpReply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed body, or undefined when the body is empty or not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary server JSON and assert on it.
  readonly json: any;
}

/**
 * Sends one request. An object body is JSON-encoded with `Content-Type: application/json`;
 * a string body is sent verbatim (for malformed-JSON tests), with the same content type unless overridden.
 */
export async function sendHttp(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpReply> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers = { 'Content-Type': 'application/json', ...headers };
  }
  const response = await fetch(`${baseUrl}${path}`, init);
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}
