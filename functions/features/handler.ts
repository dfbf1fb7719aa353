import type { Services } from '../../lib/composition/services.js';
import { contextFieldOperations } from '../../lib/context-fields/operations.js';
import {
  featureEnvironmentOperations,
  featureOperations,
  featureRelationOperations,
  featureUsageOperations,
  featureValidationOperations,
} from '../../lib/features/operations.js';
import { featureSearchOperations } from '../../lib/features/search-operations.js';
import { functionHandler } from '../../lib/composition/function-handler.js';
import { wholeRootDefinition } from '../../lib/composition/group-handler.js';
import type { GroupOperations } from '../../lib/route-table.js';
import { segmentOperations } from '../../lib/segments/operations.js';
import { tagTypeOperations } from '../../lib/tag-types/operations.js';
import { transferOperations } from '../../lib/transfer/operations.js';

/** Features with their strategies, variants and relations; the catalogues they draw on; export and import. */
export const defineOperations = (services: Services): GroupOperations<'features'> => ({
  ...featureOperations(services),
  ...featureEnvironmentOperations(services),
  ...featureRelationOperations(services),
  ...featureSearchOperations(services),
  ...featureValidationOperations(services),
  ...featureUsageOperations(services),
  ...segmentOperations(services),
  ...contextFieldOperations(services),
  ...tagTypeOperations(services),
  ...transferOperations(services),
});

export const definition = wholeRootDefinition('features', defineOperations);

export const handler = functionHandler(definition);
