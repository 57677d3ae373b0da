/** @module Finds a free TCP port on loopback, for tests that must start a child process on a known port. */
import { createServer } from 'node:net';

/** Binds port 0, reads the port the OS chose and releases it (another process could take it: fine for tests). */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
