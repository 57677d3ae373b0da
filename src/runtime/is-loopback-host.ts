/** @module Whether a host name or address can only be reached from this machine. */
import { isIP } from 'node:net';

/** True for 127.0.0.0/8, ::1 (also IPv4-mapped) and localhost: addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) !== 6) return false;
  // The URL parser writes IPv6 in its one canonical form, so ::1 and 0:0:0:0:0:0:0:1 compare equal.
  const canonical = new URL(`http://[${bare}]/`).hostname;
  return canonical === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical);
}
