/**
 * @module A keep-alive HTTP/1.1 client on one raw socket whose uploads are slow: it sends the headers and half
 * the body, reads nothing for a while, then sends the rest and reads the answer. A server that closed the
 * connection in the meantime answers the late bytes with a TCP reset, which also drops the unread answer.
 */
import { connect, type Socket } from 'node:net';

/** What one request got: the status, whether the server said `Connection: close`, or the socket error. */
export interface SlowUploadOutcome {
  readonly status?: number;
  readonly close?: boolean;
  readonly error?: string;
}

export class SlowUploadSocket {
  readonly #socket: Socket;
  #buffer = Buffer.alloc(0);
  #error: string | undefined;
  #ended = false;
  #wake: (() => void) | undefined;

  constructor(port: number) {
    this.#socket = connect(port, '127.0.0.1');
    this.#socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#wake?.();
    });
    this.#socket.on('error', (error: NodeJS.ErrnoException) => {
      this.#error ??= error.code ?? error.message;
      this.#wake?.();
    });
    this.#socket.on('close', () => {
      this.#ended = true;
      this.#wake?.();
    });
  }

  /** Sends one POST with the slow upload, then reads its answer; `pauseMs` is the gap in the upload. */
  async post(path: string, headers: Record<string, string>, body: string, pauseMs: number) {
    const lines = Object.entries({ host: '127.0.0.1', 'content-length': String(body.length), ...headers });
    const head = `POST ${path} HTTP/1.1\r\n${lines.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
    this.#socket.pause();
    this.#socket.write(head + body.slice(0, body.length / 2));
    await new Promise((wait) => setTimeout(wait, pauseMs));
    this.#socket.write(body.slice(body.length / 2));
    await new Promise((wait) => setTimeout(wait, 50));
    this.#socket.resume();
    return this.#readAnswer();
  }

  /** Whether the server has closed the connection. */
  get closed(): boolean {
    return this.#ended;
  }

  close(): void {
    this.#socket.destroy();
  }

  async #readAnswer(): Promise<SlowUploadOutcome> {
    for (;;) {
      const end = this.#buffer.indexOf('\r\n\r\n');
      if (end >= 0) {
        const head = this.#buffer.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (this.#buffer.length >= end + 4 + length) {
          this.#buffer = this.#buffer.subarray(end + 4 + length);
          // A reset right after the answer counts too: a client still writing its body sees it.
          await new Promise((wait) => setTimeout(wait, 50));
          return {
            status: Number(head.slice(9, 12)),
            close: /\r\nconnection: *close/i.test(head),
            ...(this.#error === undefined ? {} : { error: this.#error }),
          };
        }
      }
      if (this.#error !== undefined) return { error: this.#error };
      if (this.#ended) return { error: 'closed without an answer' };
      await new Promise<void>((wake) => {
        this.#wake = wake;
      });
    }
  }
}
