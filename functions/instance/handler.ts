import { NotFound } from '../../lib/errors.js';
import { groupHandler } from '../../lib/http/group-handler.js';
import { notAvailable } from '../../lib/http/map-errors.js';
import type { GroupOperations } from '../../lib/http/operation.js';
import type { Services } from '../../lib/services.js';
import { defineDocsOperations } from './docs-operations.js';

export const defineOperations = ({ uiConfig, insights }: Services): GroupOperations<'instance'> => ({
  health: async () => ({ body: { health: 'GOOD' } }),
  getUiConfig: async () => ({ body: await uiConfig.get() }),
  ...defineDocsOperations(),
  getInsights: async () => ({ body: await insights.insights() }),
  unknownApiPath: async ({ params }) => {
    throw new NotFound(notAvailable(`/api/${params.proxy}`));
  },
});

export const handler = groupHandler('instance', defineOperations);
