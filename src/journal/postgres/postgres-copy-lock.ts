/**
 * @module The advisory lock that makes `journal copy` and serving a Postgres journal exclusive: every
 * process that opens the journal holds it shared on a connection of its own, a copy holds it exclusive.
 * A lock ends with its connection, so a killed process (or, through the keep-alives set here, a dead host)
 * stops blocking the other side by itself; a serving process also keeps a heartbeat, which a copy reads
 * too, since its lock connection can drop while it serves on.
 */
import pg from 'pg';
import { ConfigError } from '../../errors/memory-pool-error.js';
import { createHolderId } from '../../runtime/holder-id.js';
import {
  beatServing,
  endServing,
  HEARTBEAT_EVERY_MS,
  HEARTBEAT_TTL_MS,
  readServingHeartbeats,
} from './postgres-serving-heartbeat.js';

/** The key of the lock (pg_locks shows it as classid 0, objid this, objsubid 1). */
export const COPY_LOCK = 7_242_025;

const KEY = 'journal.postgres.url';

/**
 * Asked of the server for the lock's connection: a holder whose host died is dropped within about a minute,
 * instead of after the operating system's default two hours of TCP silence.
 */
const SERVER_KEEPALIVE =
  'SET tcp_keepalives_idle = 30; SET tcp_keepalives_interval = 10; SET tcp_keepalives_count = 3';

/** Who holds the lock, in `mode`, as pg_stat_activity shows them (application_name names the process). */
async function holdersOf(client: pg.ClientBase, mode: 'ShareLock' | 'ExclusiveLock'): Promise<string[]> {
  const result = await client.query<{ pid: number; name: string; since: Date | null }>(
    `SELECT a.pid, a.application_name AS name, a.backend_start AS since
     FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE l.locktype = 'advisory' AND l.granted AND l.mode = $2 AND l.classid = 0 AND l.objid = $1
       AND l.objsubid = 1 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND l.pid <> pg_backend_pid()
     ORDER BY a.backend_start`,
    [COPY_LOCK, mode],
  );
  return result.rows.map(
    (r) =>
      `${r.name === '' ? 'an unnamed client' : r.name} (server pid ${r.pid}${r.since === null ? '' : `, connected since ${r.since.toISOString()}`})`,
  );
}

/** A connection of its own for the lock, named after what holds it (`role` and a host:pid:random id). */
async function connectForLock(url: string, role: string): Promise<pg.Client> {
  // application_name is cut at 63 bytes by the server: the role first, the holder id after.
  const client = new pg.Client({
    connectionString: url,
    application_name: `memory-pool ${role} ${createHolderId()}`.slice(0, 63),
    connectionTimeoutMillis: 5000,
    keepAlive: true,
  });
  // Losing it ends the lock; the journal's own queries report a lost server.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(SERVER_KEEPALIVE);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return client;
}

/**
 * Takes the lock (`shared` for a process using the journal, else exclusive for a copy) on a connection of
 * its own, named after `role`; when it is held the other way, `refusal` words who holds it.
 */
async function takeLock(
  url: string,
  role: string,
  shared: boolean,
  refusal: (client: pg.Client) => Promise<ConfigError>,
): Promise<pg.Client> {
  const client = await connectForLock(url, role);
  try {
    const held = await client.query<{ held: boolean }>(
      `SELECT pg_try_advisory_lock${shared ? '_shared' : ''}($1) AS held`,
      [COPY_LOCK],
    );
    if (held.rows[0]?.held === true) return client;
    throw await refusal(client);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}

/**
 * Holds the lock shared for a process opening the journal (serve, a CLI tool); a copy filling the journal
 * now is a ConfigError naming it and what to do. Closing the returned client gives the lock back.
 */
export function holdServingLock(url: string): Promise<pg.Client> {
  return takeLock(url, 'serve', true, async (client) => {
    const copies = await holdersOf(client, 'ExclusiveLock');
    return new ConfigError(
      KEY,
      `a \`memory-pool journal copy\` is filling this Postgres journal now (${copies.join(', ') || 'a copy that just ended'}): what memory-pool saved here meanwhile, the copy would delete. Wait for the copy to finish (it prints a summary), then start again; if that copy was killed, its lock ends with its connection.`,
    );
  });
}

/**
 * Takes the lock exclusive for a copy (closing the returned client gives it back). Another copy, or any
 * process serving this journal, is a ConfigError naming what holds it: by its lock, or by its heartbeat when
 * its lock connection dropped and it has not taken the lock again yet.
 */
export async function holdCopyLock(url: string): Promise<pg.Client> {
  const client = await takeExclusiveLock(url);
  try {
    const serving = await readServingHeartbeats(client);
    if (serving.length === 0) return client;
    throw new ConfigError(
      KEY,
      `memory-pool is serving this Postgres journal now: ${serving.join(', ')}, whose lock connection dropped (it takes the lock again within ${RETAKE_MS / 1000} s). A copy would delete what they save while it runs. Stop every memory-pool serve (and tool) using this journal, then run the copy again; a process that was killed stops counting ${HEARTBEAT_TTL_MS / 1000} s after its last heartbeat.`,
    );
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}

function takeExclusiveLock(url: string): Promise<pg.Client> {
  return takeLock(url, 'journal copy', false, async (client) => {
    const copies = await holdersOf(client, 'ExclusiveLock');
    if (copies.length > 0) {
      return new ConfigError(
        KEY,
        `another \`memory-pool journal copy\` is filling this Postgres journal now (${copies.join(', ')}); wait for it to end, then run this one again`,
      );
    }
    const serving = await holdersOf(client, 'ShareLock');
    return new ConfigError(
      KEY,
      `memory-pool is serving this Postgres journal now: ${serving.join(', ') || 'a process that just ended'}. A copy would delete what they save while it runs. Stop every memory-pool serve (and tool) using this journal, then run the copy again.`,
    );
  });
}

/** Takes the serving lock now, kept for as long as it is open: a copy filling the journal refuses it. */
export async function takeServingLock(url: string): Promise<ServingLock> {
  return new ServingLock(url, await holdServingLock(url));
}

/** How often a process whose lock connection was lost tries to take the lock again. */
const RETAKE_MS = 5000;

/**
 * The serving lock for as long as a journal is open. Its connection can be lost (a server restart, a
 * network cut) while the process keeps serving; the lock is then taken again on a new connection, so a
 * copy started after the loss is still refused.
 */
export class ServingLock {
  readonly #url: string;
  /** Names this process in its heartbeat (postgres-serving-heartbeat), as its lock connection does. */
  readonly #holder = `memory-pool serve ${createHolderId()}`;
  #client: pg.Client | undefined;
  #timer: NodeJS.Timeout | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  /** The journal's pool, once it is open (startHeartbeat); closed after this lock. */
  #journal: pg.Pool | undefined;
  #closed = false;

  /** `client` holds the lock now (from holdServingLock). */
  constructor(url: string, client: pg.Client) {
    this.#url = url;
    this.#watch(client);
  }

  /** Whether this process holds the lock now (false between a lost connection and its re-take). */
  get held(): boolean {
    return this.#client !== undefined;
  }

  /**
   * Keeps a heartbeat beside the lock from now on (the journal's tables exist once it is open): a copy
   * refuses while it is fresh, also between a lost lock connection and its re-take.
   */
  async startHeartbeat(journal: pg.Pool): Promise<void> {
    this.#journal = journal;
    await this.#beat();
    this.#heartbeat = setInterval(() => void this.#beat(), HEARTBEAT_EVERY_MS);
    this.#heartbeat.unref();
  }

  /**
   * On the journal's own connections, not the lock's: the heartbeat goes on while the lock's is lost. Best
   * effort: a beat that fails (the server gone) is made again by the next one.
   */
  async #beat(): Promise<void> {
    if (this.#journal !== undefined && !this.#closed) {
      await beatServing(this.#journal, this.#holder).catch(() => undefined);
    }
  }

  #watch(client: pg.Client): void {
    this.#client = client;
    client.once('end', () => {
      if (this.#client === client) this.#client = undefined;
      this.#retake();
    });
  }

  #retake(): void {
    if (this.#closed || this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      holdServingLock(this.#url).then(
        (client) => {
          if (this.#closed) void client.end().catch(() => undefined);
          else this.#watch(client);
        },
        // Unreachable, or a copy took it meanwhile: keep trying; the copy's count check still guards its deletes.
        () => this.#retake(),
      );
    }, RETAKE_MS);
    this.#timer.unref();
  }

  /** Ends the heartbeat (a copy may start at once), gives the lock back and stops re-taking it. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    clearInterval(this.#heartbeat);
    await this.#journal?.query(...endServing(this.#holder)).catch(() => undefined);
    await this.#client?.end().catch(() => undefined);
  }
}
