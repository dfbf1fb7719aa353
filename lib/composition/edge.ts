import { RevisionClock } from '../client/revision-clock.js';
import { FrontendOrigins } from '../frontend/dynamo-origins.js';
import { TokenAuthenticator } from '../tokens/authenticator.js';
import { DynamoApiTokenStore } from '../tokens/dynamo-store.js';
import type { Composition } from './composition.js';

/*
 * The parts of a composition every function's edge shares, one each per process (through
 * `composition.once`): the revision as this process last read it, the token cache that rides on
 * it, and the Frontend API's CORS origins.
 */

/** The revision clock; this process's own writes end its interval at once (same-process read-after-write). */
export function revisionClock(c: Composition): RevisionClock {
  const clock = new RevisionClock(c.store.revisions, { checkIntervalMs: c.config.revisionCheckIntervalMs });
  c.store.revisions.onCommittedBump(() => clock.invalidate());
  return clock;
}

export function apiTokenStore(c: Composition): DynamoApiTokenStore {
  return new DynamoApiTokenStore(c.store.db, c.store.tableName, c.store.revisions);
}

/** API tokens → callers, cached; revocations ride on the clock's read of the revision item (no read of their own). */
export function tokenAuthenticator(c: Composition): TokenAuthenticator {
  return new TokenAuthenticator(c.once(apiTokenStore), c.config.baseUriPath, { ttlMs: c.config.tokenCacheTtlMs, changes: c.once(revisionClock) });
}

/** Where browsers may call the Frontend API from; they ride on the revision clock too. */
export function frontendOrigins(c: Composition): FrontendOrigins {
  return new FrontendOrigins(c.store.db, c.store.tableName, c.store.revisions, c.once(revisionClock), c.config.frontendApiOrigins);
}
