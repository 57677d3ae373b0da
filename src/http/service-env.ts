/** @module The Hono variables the service's middleware sets for its routes. */
import type { Principal } from '../auth/api-key-auth.js';

/** Hono variables set by middleware. */
export interface ServiceEnv {
  Variables: { principal: Principal };
}
