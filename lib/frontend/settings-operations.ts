import type { OperationsFor } from '../http/operation.js';
import type { FrontendOrigins } from './dynamo-origins.js';
import type { frontendSettingsRoutes } from './settings-routes.js';

export const frontendSettingsOperations = ({ frontendOrigins }: { frontendOrigins: Pick<FrontendOrigins, 'set'> }): OperationsFor<typeof frontendSettingsRoutes> => ({
  setFrontendOrigins: async ({ body }) => {
    await frontendOrigins.set(body.frontendApiOrigins);
    return {};
  },
});
