import type { Services } from '../composition/services.js';
import type { OperationsFor } from '../http/operation.js';
import type { oidcSettingsRoutes } from './routes.js';
import { toOidcSettingsWire } from './wire.js';

export const oidcSettingsOperations = ({ oidcSettings }: Services): OperationsFor<typeof oidcSettingsRoutes> => ({
  getOidcSettings: async () => ({ body: toOidcSettingsWire(await oidcSettings.get()) }),
  setOidcSettings: async ({ body, caller }) => ({ body: toOidcSettingsWire(await oidcSettings.set(body, caller.tokenName)) }),
});
