/** @module A new person's id: random, so ids made on two replicas at once never collide. */
import { randomBytes } from 'node:crypto';

/** `p_` and 16 hex digits (64 bits). */
export function newPersonId(): string {
  return `p_${randomBytes(8).toString('hex')}`;
}
