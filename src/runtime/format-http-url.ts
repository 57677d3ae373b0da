/** @module The base URL of a server listening on `host:port`. */

/** `http://host:port`; IPv6 literals need brackets in a URL. */
export function formatHttpUrl(host: string, port: number): string {
  return host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}
