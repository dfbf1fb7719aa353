import type { Slice, SliceContext } from '../slice.js';
import { DynamoLoginFailureStore, DynamoResetTokenStore } from './dynamo-store.js';
import { authOperations } from './operations.js';
import type { AuthPorts } from './ports.js';
import { authRoutes } from './routes.js';
import { AuthService } from './service.js';

/** People's login (Unleash's simple auth), their own user and password, reset links and invite signup (E1). */
export function authSlice({ config, store, now }: SliceContext, ports: AuthPorts) {
  const auth = new AuthService(
    ports.users, ports.credentials, ports.sessions,
    new DynamoResetTokenStore(store.db, store.tableName), new DynamoLoginFailureStore(store.db, store.tableName),
    ports.invites, ports.loginMethods, config.unleashUrl, now,
  );
  return {
    routes: authRoutes,
    operations: authOperations({ auth, ports, config }),
    auth,
  } satisfies Slice<typeof authRoutes> & Record<string, unknown>;
}
