/** @module One process's name in leases and chunk claims, shared by the journal's passes and Discord's gateway lease. */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/** Host, pid and a random tail: a restarted process (even with the same pid) is another holder. */
export function createHolderId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}
