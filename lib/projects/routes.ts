import { admin, defineRoutes } from '../http/route.js';
import {
  defaultStrategyInputSchema,
  defaultStrategySchema,
  projectCreatedSchema,
  projectCreateSchema,
  projectEnvironmentSchema,
  projectListSchema,
  projectOverviewQuerySchema,
  projectOverviewSchema,
  projectSummarySchema,
  projectUpdateSchema,
} from './schemas.js';

const PROJECT = '/api/admin/projects/{projectId}';

/** Projects, and which environments each one uses. */
export const projectRoutes = defineRoutes('projects', {
  listProjects: {
    method: 'GET', path: '/api/admin/projects', access: admin('READ_PROJECT'), status: 200,
    summary: 'List projects with their feature counts and health', response: projectListSchema,
  },
  createProject: {
    method: 'POST', path: '/api/admin/projects', access: admin('CREATE_PROJECT'), status: 201,
    summary: 'Create a project', body: projectCreateSchema, response: projectCreatedSchema,
  },
  getProjectOverview: {
    method: 'GET', path: PROJECT, access: admin('READ_PROJECT'), status: 200,
    summary: 'E8. Get an overview of a project (deprecated)', query: projectOverviewQuerySchema, response: projectOverviewSchema,
    deprecated: true,
  },
  getProjectSummary: {
    method: 'GET', path: `${PROJECT}/overview`, access: admin('READ_PROJECT'), status: 200,
    summary: "Get a project's settings, stats, feature counts by type and onboarding status (the admin UI's project page)",
    query: projectOverviewQuerySchema, response: projectSummarySchema,
  },
  updateProject: {
    method: 'PUT', path: PROJECT, access: admin('UPDATE_PROJECT'), status: 200,
    summary: "Replace a project's settings (name, description, mode, stickiness, feature limit, naming pattern)",
    body: projectUpdateSchema,
  },
  deleteProject: {
    method: 'DELETE', path: PROJECT, access: admin('DELETE_PROJECT'), status: 200,
    summary: 'Delete a project that has no features (archived ones included)',
  },
  addProjectEnvironment: {
    method: 'POST', path: `${PROJECT}/environments`, access: admin('UPDATE_PROJECT'), status: 200,
    summary: 'Add an environment to a project', body: projectEnvironmentSchema,
  },
  removeProjectEnvironment: {
    method: 'DELETE', path: `${PROJECT}/environments/{environment}`, access: admin('UPDATE_PROJECT'),
    status: 200, summary: 'Remove an environment from a project (never the last one)',
  },
  setProjectDefaultStrategy: {
    method: 'POST', path: `${PROJECT}/environments/{environment}/default-strategy`,
    access: admin('UPDATE_PROJECT'), status: 200, summary: 'Set the strategy that enabling a feature adds in an environment',
    body: defaultStrategyInputSchema, response: defaultStrategySchema,
  },
});
