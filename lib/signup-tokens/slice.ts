import type { Slice, SliceContext } from '../slice.js';
import { DynamoSignupTokenStore } from './dynamo-store.js';
import { signupTokenOperations } from './operations.js';
import type { SignupTokenPorts } from './ports.js';
import { signupTokenRoutes } from './routes.js';
import { SignupTokenService } from './service.js';

/** Public signup tokens: links through which people create their own user (E1). */
export function signupTokenSlice({ config, store }: SliceContext, ports: SignupTokenPorts) {
  const signupTokens = new SignupTokenService(new DynamoSignupTokenStore(store.db, store.tableName), ports.users, config.unleashUrl);
  return {
    routes: signupTokenRoutes,
    operations: signupTokenOperations({ signupTokens, unleashUrl: config.unleashUrl }),
    signupTokens,
  } satisfies Slice<typeof signupTokenRoutes> & Record<string, unknown>;
}
