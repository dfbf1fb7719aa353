import type { Slice, SliceContext } from '../slice.js';
import { DynamoUserSettingsStore } from './dynamo-store.js';
import { userSettingsOperations } from './operations.js';
import { userSettingsRoutes } from './routes.js';
import { UserSettingsService } from './service.js';

/** The splash screens and feedback the admin UI remembers per person. */
export function userSettingsSlice({ store, now }: SliceContext) {
  const userSettings = new UserSettingsService(new DynamoUserSettingsStore(store.db, store.tableName), now);
  return {
    routes: userSettingsRoutes,
    operations: userSettingsOperations({ userSettings }),
    userSettings,
  } satisfies Slice<typeof userSettingsRoutes> & Record<string, unknown>;
}
