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
  'delete-context-field': {
    operation: 'deleteContextField',
    params: { name: 'sample-tenant-{{UNIQUE}}' },
    status: 200,
    given: ['features/create-context-field'],
  },
});
