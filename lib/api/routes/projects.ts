import { route, type RouteSpec } from '../route-types.js';
import {
  defaultStrategyInputSchema,
  defaultStrategySchema,
  projectCreatedSchema,
  projectCreateSchema,
  projectEnvironmentSchema,
  projectListSchema,
  projectOverviewQuerySchema,
  projectOverviewSchema,
  projectUpdateSchema,
} from '../schemas/projects.js';

const PROJECT = '/api/admin/projects/{projectId}';
const admin = (permission: string) => ({ kind: 'admin', permission }) as const;

/** Projects, and which environments each one uses. */
export const projectRoutes = {
  listProjects: route({
    method: 'GET', path: '/api/admin/projects', group: 'projects', access: admin('READ_PROJECT'), status: 200,
    summary: 'List projects with their feature counts and health', response: projectListSchema,
  }),
  createProject: route({
    method: 'POST', path: '/api/admin/projects', group: 'projects', access: admin('CREATE_PROJECT'), status: 201,
    summary: 'Create a project', body: projectCreateSchema, response: projectCreatedSchema,
  }),
  getProjectOverview: route({
    method: 'GET', path: PROJECT, group: 'projects', access: admin('READ_PROJECT'), status: 200,
    summary: 'E8. Get an overview of a project (deprecated)', query: projectOverviewQuerySchema, response: projectOverviewSchema,
    deprecated: true,
  }),
  updateProject: route({
    method: 'PUT', path: PROJECT, group: 'projects', access: admin('UPDATE_PROJECT'), status: 200,
    summary: "Replace a project's settings (name, description, mode, stickiness, feature limit, naming pattern)",
    body: projectUpdateSchema,
  }),
  deleteProject: route({
    method: 'DELETE', path: PROJECT, group: 'projects', access: admin('DELETE_PROJECT'), status: 200,
    summary: 'Delete a project that has no features (archived ones included)',
  }),
  addProjectEnvironment: route({
    method: 'POST', path: `${PROJECT}/environments`, group: 'projects', access: admin('UPDATE_PROJECT'), status: 200,
    summary: 'Add an environment to a project', body: projectEnvironmentSchema,
  }),
  removeProjectEnvironment: route({
    method: 'DELETE', path: `${PROJECT}/environments/{environment}`, group: 'projects', access: admin('UPDATE_PROJECT'),
    status: 200, summary: 'Remove an environment from a project (never the last one)',
  }),
  setProjectDefaultStrategy: route({
    method: 'POST', path: `${PROJECT}/environments/{environment}/default-strategy`, group: 'projects',
    access: admin('UPDATE_PROJECT'), status: 200, summary: 'Set the strategy that enabling a feature adds in an environment',
    body: defaultStrategyInputSchema, response: defaultStrategySchema,
  }),
} as const satisfies Record<string, RouteSpec>;
