import { defineSamples } from '../samples.js';
import { favouriteRoutes } from './routes.js';

// Samples call with the admin token, which is no user: every one shows the 400 a token gets.
export const favouriteSamples = defineSamples(favouriteRoutes, {
  'favourite-feature-as-token': { operation: 'favouriteFeature', params: { projectId: 'default', featureName: 'sample-flag' }, status: 400 },
  'unfavourite-feature-as-token': { operation: 'unfavouriteFeature', params: { projectId: 'default', featureName: 'sample-flag' }, status: 400 },
  'favourite-project-as-token': { operation: 'favouriteProject', params: { projectId: 'default' }, status: 400 },
  'unfavourite-project-as-token': { operation: 'unfavouriteProject', params: { projectId: 'default' }, status: 400 },
});
