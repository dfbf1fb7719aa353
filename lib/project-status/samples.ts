import { defineSamples } from '../samples.js';
import { projectStatusRoutes } from './routes.js';

const project = { projectId: 'default' };

export const projectStatusSamples = defineSamples(projectStatusRoutes, {
  'project-status': { operation: 'getProjectStatus', params: project, status: 200 },
  'project-status-unknown': { operation: 'getProjectStatus', params: { projectId: 'sample-unknown' }, status: 404 },
  'project-flag-creators': { operation: 'getProjectFlagCreators', params: project, status: 200 },
  'project-outdated-sdks': { operation: 'getOutdatedSdks', params: project, status: 200 },
});
