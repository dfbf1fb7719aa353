import { defineSamples } from '../samples.js';
import { projectRoutes } from './routes.js';

export const projectSamples = defineSamples(projectRoutes, {
  'create-project': {
    operation: 'createProject',
    body: {
      id: 'sample-project-{{UNIQUE}}',
      name: 'Sample project',
      description: 'Made by the sample events',
      environments: ['development', 'production'],
    },
    status: 201,
  },
  'create-project-bad-naming-pattern': {
    operation: 'createProject',
    body: {
      id: 'sample-bad-pattern',
      name: 'Bad pattern',
      featureNaming: { pattern: '[a-z]+', example: 'Not-Matching' },
    },
    status: 400,
  },
  'list-projects': { operation: 'listProjects', status: 200 },
  'get-project-overview': { operation: 'getProjectOverview', params: { projectId: 'default' }, status: 200 },
  'get-project-summary': { operation: 'getProjectSummary', params: { projectId: 'default' }, status: 200 },
  'get-unknown-project': { operation: 'getProjectOverview', params: { projectId: 'sample-unknown' }, status: 404 },
  'update-project': {
    operation: 'updateProject',
    params: { projectId: 'sample-project-{{UNIQUE}}' },
    body: {
      name: 'Sample project',
      description: 'Renamed by the sample events',
      mode: 'protected',
      featureLimit: 50,
      featureNaming: {
        pattern: 'sample-[a-z0-9-]+',
        example: 'sample-search',
        description: 'Start with sample-',
      },
    },
    status: 200,
    given: ['projects/create-project'],
  },
  'add-project-environment': {
    operation: 'addProjectEnvironment',
    params: { projectId: 'sample-project-{{UNIQUE}}' },
    body: { environment: 'sample-staging-{{UNIQUE}}' },
    status: 200,
    given: ['projects/create-project', 'projects/create-environment'],
  },
  'set-default-strategy': {
    operation: 'setProjectDefaultStrategy',
    params: { projectId: 'sample-project-{{UNIQUE}}', environment: 'sample-staging-{{UNIQUE}}' },
    body: {
      name: 'flexibleRollout',
      constraints: [],
      parameters: { rollout: '25', stickiness: 'default', groupId: 'sample' },
    },
    status: 200,
    given: ['projects/add-project-environment'],
  },
  'remove-project-environment': {
    operation: 'removeProjectEnvironment',
    params: { projectId: 'sample-project-{{UNIQUE}}', environment: 'sample-staging-{{UNIQUE}}' },
    status: 200,
    given: ['projects/add-project-environment'],
  },
  'delete-project': {
    operation: 'deleteProject',
    params: { projectId: 'sample-project-{{UNIQUE}}' },
    status: 200,
    given: ['projects/create-project'],
  },
  'delete-default-project': { operation: 'deleteProject', params: { projectId: 'default' }, status: 400 },
});
