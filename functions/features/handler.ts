import { groupHandler } from '../../lib/http/group-handler.js';
import type { GroupOperations } from '../../lib/http/operation.js';
import type { Services } from '../../lib/services.js';
import { defineCatalogOperations } from './catalog-operations.js';
import { defineFeatureOperations } from './feature-operations.js';
import { defineTransferOperations } from './transfer-operations.js';

export const defineOperations = (services: Services): GroupOperations<'features'> => ({
  ...defineCatalogOperations(services),
  ...defineFeatureOperations(services),
  ...defineTransferOperations(services),
});

export const handler = groupHandler('features', defineOperations);
