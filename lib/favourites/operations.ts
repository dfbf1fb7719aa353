import type { OperationsFor } from '../http/operation.js';
import type { favouriteRoutes } from './routes.js';
import type { FavouriteService } from './service.js';

export const favouriteOperations = ({ favourites }: { favourites: FavouriteService }): OperationsFor<typeof favouriteRoutes> => ({
  favouriteFeature: async ({ params, caller }) => {
    await favourites.favouriteFeature(caller, params.projectId, params.featureName);
    return {};
  },
  unfavouriteFeature: async ({ params, caller }) => {
    await favourites.unfavouriteFeature(caller, params.projectId, params.featureName);
    return {};
  },
  favouriteProject: async ({ params, caller }) => {
    await favourites.favouriteProject(caller, params.projectId);
    return {};
  },
  unfavouriteProject: async ({ params, caller }) => {
    await favourites.unfavouriteProject(caller, params.projectId);
    return {};
  },
});
