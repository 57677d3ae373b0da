/**
 * @module Makes the journal's commits durable without blocking the event loop. The connection runs with
 * `synchronous = NORMAL`, so a commit only hands its pages to the OS (it survives a killed process, and
 * SQLite stays consistent whatever happens); before anything is acknowledged, `flush()` fsyncs the WAL
 * file on libuv's thread pool, which is what `synchronous = FULL` did inside every commit, on the event
 * loop, for ~6-20 ms each. Callers that arrive while an fsync runs share the next one (group commit).
 */
import { closeSync, fdatasync, fsync, open } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { JournalError } from '../errors/memory-pool-error.js';
import type { JournalHealth } from './journal-health.js';

export class WalSync {
  /** The fsync that covers commits made before it started, if one runs. */
  #running: Promise<void> | undefined;
  /** The fsync that will start after the running one, shared by everyone who asks meanwhile. */
  #next: Promise<void> | undefined;
  #directorySynced = false;
  /**
   * The WAL's descriptor, kept open: opening it for every fsync cost the event loop more than the commit.
   * SQLite keeps the same file while its connection is open (a checkpoint rewinds it, never replaces it).
   */
  #walFd: number | undefined;

  readonly #walPath: string;
  readonly #health: JournalHealth;
  /** fsyncs one path, through `fd` when given (tests count and fail them). */
  readonly #syncFile: (path: string, fd?: number) => Promise<void>;
  readonly #openFile: (path: string) => Promise<number>;

  constructor(
    walPath: string,
    health: JournalHealth,
    syncFile: (path: string, fd?: number) => Promise<void> = syncPath,
    openFile: (path: string) => Promise<number> = openForSync,
  ) {
    this.#walPath = walPath;
    this.#health = health;
    this.#syncFile = syncFile;
    this.#openFile = openFile;
  }

  /** Closes the WAL's descriptor (with the journal). */
  close(): void {
    if (this.#walFd !== undefined) closeSync(this.#walFd);
    this.#walFd = undefined;
  }

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
        await this.#syncFile(dirname(this.#walPath));
        this.#directorySynced = true;
      }
      this.#walFd ??= await this.#openFile(this.#walPath);
      await this.#syncFile(this.#walPath, this.#walFd);
    } catch (error) {
      this.close(); // the next flush opens the file afresh
      const failure = new JournalError(
        `the journal could not be flushed to disk (${(error as NodeJS.ErrnoException).code ?? String(error)}); check the disk under dataDir, then retry (no restart needed)`,
        error,
      );
      this.#health.failed(failure);
      throw failure;
    }
  }
}

const openAsync = promisify(open);
const fsyncAsync = promisify(fsync);
const fdatasyncAsync = promisify(fdatasync);

/** Read-only is enough: fsync flushes the file's inode, whichever descriptor wrote it. */
function openForSync(path: string): Promise<number> {
  return openAsync(path, 'r');
}

/**
 * Flushes the WAL through `fd` with fdatasync: the data and whatever metadata reading it back needs (a size
 * change), not the modification time, so an overwrite in place needs no filesystem journal commit, which
 * waits for whatever else the disk was given (the store's vectors). Without `fd`, fsyncs `path` (a directory
 * entry).
 */
async function syncPath(path: string, fd?: number): Promise<void> {
  if (fd !== undefined) return fdatasyncAsync(fd);
  const opened = await openForSync(path);
  try {
    await fsyncAsync(opened);
  } finally {
    closeSync(opened);
  }
}
