/** @module Sends raw bytes to a server on one fresh connection and collects whatever comes back, for socket-level tests. */
import { connect } from 'node:net';

/** What came back: the status of the first answer (0 when the server sent none) and everything it sent. */
export interface RawExchange {
  readonly status: number;
  readonly text: string;
}

/**
 * Writes `chunks` one after the other (`'pause'` waits a moment, `'abort'` resets the connection), then reads
 * until the server closes or `idleMs` pass without data.
 */
export function exchangeRaw(
  port: number,
  chunks: readonly (string | Uint8Array | 'pause' | 'abort')[],
  idleMs = 300,
): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let idle: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(idle);
      socket.destroy();
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
      resolve({ status: status === undefined ? 0 : Number(status), text });
    };
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(finish, idleMs);
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      arm();
    });
    socket.on('error', () => {});
    socket.on('close', finish);
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) break;
        if (chunk === 'pause') await new Promise((wait) => setTimeout(wait, 50));
        else if (chunk === 'abort') {
          socket.resetAndDestroy();
          return;
        } else socket.write(chunk);
      }
      arm();
    });
  });
}
