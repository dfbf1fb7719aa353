import { admin, defineRoutes } from '../http/route.js';

const FEATURE = '/api/admin/projects/{projectId}/features/{featureName}/favorites';

/**
 * The star on flags and projects in the admin UI, per user. Unleash guards these with no
 * permission (any logged-in user); READ_PROJECT is what every root role holds. An API token
 * is no user: it is answered 400.
 */
export const favouriteRoutes = defineRoutes('projects', {
  favouriteFeature: {
    method: 'POST', path: FEATURE, access: admin('READ_PROJECT'), status: 200,
    summary: "Star a flag for the caller: it is marked favorite and listed first in the caller's searches and dashboard",
  },
  unfavouriteFeature: {
    method: 'DELETE', path: FEATURE, access: admin('READ_PROJECT'), status: 200,
    summary: 'Remove the star from a flag for the caller',
  },
  favouriteProject: {
    method: 'POST', path: '/api/admin/projects/{projectId}/favorites', access: admin('READ_PROJECT'), status: 200,
    summary: "Star a project for the caller: marked favorite in the project list and on the caller's dashboard",
  },
  unfavouriteProject: {
    method: 'DELETE', path: '/api/admin/projects/{projectId}/favorites', access: admin('READ_PROJECT'), status: 200,
    summary: 'Remove the star from a project for the caller',
  },
});
