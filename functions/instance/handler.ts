import type { Services } from '../../lib/composition/services.js';
import { docsOperations } from '../../lib/docs/operations.js';
import { groupHandler } from '../../lib/composition/group-handler.js';
import type { GroupOperations } from '../../lib/route-table.js';
import { insightOperations } from '../../lib/insights/operations.js';
import { instanceOperations } from '../../lib/instance/operations.js';

export const defineOperations = (services: Services): GroupOperations<'instance'> => ({
  ...instanceOperations(services),
  ...docsOperations(services.config.baseUriPath),
  ...insightOperations(services),
});

export const handler = groupHandler('instance', defineOperations);
