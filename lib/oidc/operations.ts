import type { authSettingsRoutes } from './routes.js';
import type { OidcSettingsWire } from './schemas.js';
import type { OperationsFor } from '../http/operation.js';
import type { OidcSettingsView } from './model.js';
import type { Services } from '../composition/services.js';

export const authSettingsOperations = ({ oidcSettings }: Services): OperationsFor<typeof authSettingsRoutes> => ({
  getOidcSettings: async () => ({ body: toWire(await oidcSettings.get()) }),
  setOidcSettings: async ({ body, caller }) => ({ body: toWire(await oidcSettings.set(body, caller.tokenName)) }),
});

/** Unset optional fields are left out rather than sent as null, as Unleash's settings are. */
function toWire(settings: OidcSettingsView): OidcSettingsWire {
  const { discoverUrl, defaultRootRoleId, emailDomains, acrValues, ...always } = settings;
  return {
    ...always,
    ...(discoverUrl === null ? {} : { discoverUrl }),
    ...(defaultRootRoleId === null ? {} : { defaultRootRoleId }),
    ...(emailDomains === null ? {} : { emailDomains }),
    ...(acrValues === null ? {} : { acrValues }),
  };
}
