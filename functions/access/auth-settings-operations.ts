import type { authSettingsRoutes } from '../../lib/api/routes/auth-settings.js';
import type { OidcSettingsWire } from '../../lib/api/schemas/oidc-settings.js';
import type { OperationsFor } from '../../lib/http/operation.js';
import type { OidcSettingsView } from '../../lib/oidc/model.js';
import type { Services } from '../../lib/services.js';

export const defineAuthSettingsOperations = ({ oidcSettings }: Services): OperationsFor<typeof authSettingsRoutes> => ({
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
