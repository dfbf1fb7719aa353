import { defineSamples } from '../samples.js';
import { personalDashboardRoutes } from './routes.js';

// Samples call with the admin token, which is no person: each shows the 400 a token gets.
export const personalDashboardSamples = defineSamples(personalDashboardRoutes, {
  'profile-as-token': { operation: 'getProfile', status: 400 },
  'personal-dashboard-as-token': { operation: 'getPersonalDashboard', status: 400 },
  'personal-dashboard-project-as-token': { operation: 'getPersonalDashboardProject', params: { projectId: 'default' }, status: 400 },
});
