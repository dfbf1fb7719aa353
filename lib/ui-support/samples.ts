import { defineSamples } from '../samples.js';
import { uiSupportRoutes } from './routes.js';

const project = { projectId: 'default' };

export const uiSupportSamples = defineSamples(uiSupportRoutes, {
  'personal-dashboard-project': { operation: 'getPersonalDashboardProject', params: project, status: 200 },
  'project-status': { operation: 'getProjectStatus', params: project, status: 200 },
  'project-status-unknown': { operation: 'getProjectStatus', params: { projectId: 'sample-unknown' }, status: 404 },
  'project-flag-creators': { operation: 'getProjectFlagCreators', params: project, status: 200 },
  'instance-statistics': { operation: 'getInstanceStatistics', status: 200 },
  'project-outdated-sdks': { operation: 'getOutdatedSdks', params: project, status: 200 },
  'record-ui-error': { operation: 'recordUiError', body: { errorMessage: 'Sample: a component failed to render' }, status: 204 },
});
