import type { Slice, SliceContext } from '../slice.js';
import { DynamoFavouriteStore } from './dynamo-store.js';
import { favouriteOperations } from './operations.js';
import type { FavouritePorts } from './ports.js';
import { favouriteRoutes } from './routes.js';
import { FavouriteService } from './service.js';

/** Favourite flags and projects, per user. */
export function favouriteSlice({ store }: SliceContext, ports: FavouritePorts) {
  const favourites = new FavouriteService(new DynamoFavouriteStore(store.db, store.tableName), ports);
  return {
    routes: favouriteRoutes,
    operations: favouriteOperations({ favourites }),
    favourites,
  } satisfies Slice<typeof favouriteRoutes> & Record<string, unknown>;
}
