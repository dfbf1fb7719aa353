import type { Services } from '../composition/services.js';
import { NotFound } from '../errors.js';
import { notAvailable } from '../http/map-errors.js';
import type { OperationsFor } from '../http/operation.js';
import type { instanceRoutes } from './routes.js';

export const instanceOperations = ({ uiConfig }: Services): OperationsFor<typeof instanceRoutes> => ({
  health: async () => ({ body: { health: 'GOOD' } }),
  getUiConfig: async () => ({ body: await uiConfig.get() }),
  unknownApiPath: async ({ params }) => {
    throw new NotFound(notAvailable(`/api/${params.proxy}`));
  },
});
