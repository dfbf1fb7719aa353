import { defineSamples } from '../samples.js';
import { contextFieldRoutes } from './routes.js';

export const contextFieldSamples = defineSamples(contextFieldRoutes, {
  'create-context-field': {
    operation: 'createContextField',
    body: {
      name: 'sample-tenant-{{UNIQUE}}',
      description: 'The customer tenant',
      legalValues: [{ value: 'acme', description: 'Acme Inc.' }, { value: 'globex' }],
      stickiness: true,
    },
    status: 201,
  },
  'list-context-fields': { operation: 'listContextFields', status: 200 },
  'list-project-context-fields': {
    operation: 'listProjectContextFields',
    params: { projectId: 'default' },
    query: { include: 'root' },
    status: 200,
  },
  'get-context-field': {
    operation: 'getContextField',
    params: { name: 'sample-tenant-{{UNIQUE}}' },
    status: 200,
    given: ['features/create-context-field'],
  },
  'list-context-field-strategies': {
    operation: 'listContextFieldStrategies',
    params: { name: 'userId' },
    status: 200,
    given: ['features/add-strategy'],
  },
  'update-context-field': {
    operation: 'updateContextField',
    params: { name: 'sample-tenant-{{UNIQUE}}' },
    body: {
      description: 'The customer tenant',
      legalValues: [{ value: 'acme' }, { value: 'globex' }, { value: 'initech' }],
      stickiness: true,
    },
    status: 200,
    given: ['features/create-context-field'],
  },
  'validate-context-field-name': { operation: 'validateContextFieldName', body: { name: 'sample-free-{{UNIQUE}}' }, status: 200 },
  'validate-taken-context-field-name': { operation: 'validateContextFieldName', body: { name: 'userId' }, status: 409 },
  'create-project-context-field': {
    operation: 'createProjectContextField',
    params: { projectId: 'default' },
    body: { name: 'sample-region-{{UNIQUE}}', description: 'Where the customer is', legalValues: [{ value: 'eu' }, { value: 'us' }] },
    status: 201,
  },
  'get-project-context-field': {
    operation: 'getProjectContextField',
    params: { projectId: 'default', name: 'sample-region-{{UNIQUE}}' },
    status: 200,
    given: ['features/create-project-context-field'],
  },
  'validate-project-context-field-name': {
    operation: 'validateProjectContextFieldName', params: { projectId: 'default' }, body: { name: 'sample-free-{{UNIQUE}}' }, status: 200,
  },
  'update-project-context-field': {
    operation: 'updateProjectContextField',
    params: { projectId: 'default', name: 'sample-region-{{UNIQUE}}' },
    body: { description: 'Where the customer is', legalValues: [{ value: 'eu' }, { value: 'us' }, { value: 'apac' }] },
    status: 200,
    given: ['features/create-project-context-field'],
  },
  'delete-project-context-field': {
    operation: 'deleteProjectContextField',
    params: { projectId: 'default', name: 'sample-region-{{UNIQUE}}' },
    status: 200,
    given: ['features/create-project-context-field'],
  },
  'delete-context-field': {
    operation: 'deleteContextField',
    params: { name: 'sample-tenant-{{UNIQUE}}' },
    status: 200,
    given: ['features/create-context-field'],
  },
});
