import { groupHandler } from '../../lib/http/group-handler.js';
import type { GroupOperations } from '../../lib/http/operation.js';
import type { Services } from '../../lib/services.js';
import { defineCatalogOperations } from './catalog-operations.js';

export const defineOperations = (services: Services): GroupOperations<'features'> => ({
  ...defineCatalogOperations(services),
});

export const handler = groupHandler('features', defineOperations);
