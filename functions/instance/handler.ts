import type { Services } from '../../lib/composition/services.js';
import { applicationOperations } from '../../lib/applications/operations.js';
import { docsOperations } from '../../lib/docs/operations.js';
import { eventOperations } from '../../lib/events/operations.js';
import { functionHandler } from '../../lib/composition/function-handler.js';
import { wholeRootDefinition } from '../../lib/composition/group-handler.js';
import type { GroupOperations } from '../../lib/route-table.js';
import { insightOperations } from '../../lib/insights/operations.js';
import { instanceOperations } from '../../lib/instance/operations.js';
import { playgroundOperations } from '../../lib/playground/operations.js';
import { uiSupportOperations } from '../../lib/ui-support/operations.js';

export const defineOperations = (services: Services): GroupOperations<'instance'> => ({
  ...instanceOperations(services),
  ...docsOperations(services.config.baseUriPath),
  ...insightOperations(services),
  ...eventOperations(services),
  ...applicationOperations(services),
  // The one admin function that loads the evaluation engine (unleash-client).
  ...playgroundOperations(services),
  ...uiSupportOperations(services),
});

export const definition = wholeRootDefinition('instance', defineOperations);

export const handler = functionHandler(definition);
