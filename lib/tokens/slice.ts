import type { Slice, SliceContext } from '../slice.js';
import { apiTokenOperations } from './operations.js';
import type { ApiTokenPorts } from './ports.js';
import { apiTokenRoutes } from './routes.js';
import { ApiTokenService } from './service.js';

/** API tokens: client, frontend and admin tokens, their scopes and revocation (E1). */
export function apiTokenSlice(_context: SliceContext, ports: ApiTokenPorts) {
  const apiTokens = new ApiTokenService(ports.store, ports.scopes, ports.authenticator);
  return {
    routes: apiTokenRoutes,
    operations: apiTokenOperations({ apiTokens }),
    apiTokens,
  } satisfies Slice<typeof apiTokenRoutes> & Record<string, unknown>;
}
