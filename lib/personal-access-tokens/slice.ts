import type { Slice, SliceContext } from '../slice.js';
import { DynamoPersonalTokenStore } from './dynamo-store.js';
import { personalTokenOperations } from './operations.js';
import { personalTokenRoutes } from './routes.js';
import { PersonalTokenService } from './service.js';

/** A person's own personal access tokens; authenticating with one is the admin edge's (lib/composition/session-edge.ts). */
export function personalTokenSlice({ store, now }: SliceContext) {
  const personalTokens = new PersonalTokenService(new DynamoPersonalTokenStore(store.db, store.tableName), now);
  return {
    routes: personalTokenRoutes,
    operations: personalTokenOperations({ personalTokens }),
    personalTokens,
  } satisfies Slice<typeof personalTokenRoutes> & Record<string, unknown>;
}
