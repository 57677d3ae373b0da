/** @module Whether a listen address is reachable only from this machine, so the store may run without an API key. */
import { isIP } from 'node:net';

/** True for `localhost`, 127.0.0.0/8, `::1` and IPv4-mapped loopback; false for 0.0.0.0, `::` and real interfaces. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const lower = bare.toLowerCase();
  if (lower === 'localhost' || lower === '::1') return true;
  const v4 = lower.startsWith('::ffff:') ? lower.slice('::ffff:'.length) : lower;
  return isIP(v4) === 4 && v4.startsWith('127.');
}
