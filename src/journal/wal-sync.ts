/**
 * @module Makes the journal's commits durable without blocking the event loop. The connection runs with
 * `synchronous = NORMAL`, so a commit only hands its pages to the OS (it survives a killed process, and
 * SQLite stays consistent whatever happens); before anything is acknowledged, `flush()` fsyncs the WAL
 * file on libuv's thread pool, which is what `synchronous = FULL` did inside every commit, on the event
 * loop, for ~6-20 ms each. Callers that arrive while an fsync runs share the next one (group commit).
 */
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { JournalError } from '../errors/memory-pool-error.js';
import type { JournalHealth } from './journal-health.js';

export class WalSync {
  /** The fsync that covers commits made before it started, if one runs. */
  #running: Promise<void> | undefined;
  /** The fsync that will start after the running one, shared by everyone who asks meanwhile. */
  #next: Promise<void> | undefined;
  #directorySynced = false;

  constructor(
    private readonly walPath: string,
    private readonly health: JournalHealth,
    /** fsyncs one path (tests count and fail them). */
    private readonly syncFile: (path: string) => Promise<void> = syncPath,
  ) {}

  /** Resolves once every commit made before the call is on disk; JournalError when the disk refuses. */
  flush(): Promise<void> {
    // A running fsync may have started before the caller's commit: wait for it, then one more.
    if (this.#running === undefined) return this.#start();
    this.#next ??= this.#running.then(
      () => this.#start(),
      () => this.#start(),
    );
    return this.#next;
  }

  #start(): Promise<void> {
    this.#next = undefined;
    const run = this.#sync().finally(() => {
      if (this.#running === run) this.#running = undefined;
    });
    this.#running = run;
    return run;
  }

  async #sync(): Promise<void> {
    try {
      // The WAL file is created on the first write; its directory entry must be durable once, too.
      if (!this.#directorySynced) {
        await this.syncFile(dirname(this.walPath));
        this.#directorySynced = true;
      }
      await this.syncFile(this.walPath);
    } catch (error) {
      const failure = new JournalError(
        `the journal could not be flushed to disk (${(error as NodeJS.ErrnoException).code ?? String(error)}); check the disk under dataDir, then retry (no restart needed)`,
        error,
      );
      this.health.failed(failure);
      throw failure;
    }
  }
}

/** fsync through a fresh descriptor: it always reaches the file now at `path`, and Linux syncs the inode. */
async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
