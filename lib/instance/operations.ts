import { NotFound } from '../errors.js';
import { notAvailable } from '../http/map-errors.js';
import type { OperationsFor } from '../http/operation.js';
import type { instanceRoutes } from './routes.js';
import type { UiConfigService } from './ui-config.js';

export const instanceOperations = ({ uiConfig }: { uiConfig: UiConfigService }): OperationsFor<typeof instanceRoutes> => ({
  health: async () => ({ body: { health: 'GOOD' } }),
  getUiConfig: async () => ({ body: await uiConfig.get() }),
  unknownApiPath: async ({ params }) => {
    throw new NotFound(notAvailable(`/api/${params.proxy}`));
  },
});
