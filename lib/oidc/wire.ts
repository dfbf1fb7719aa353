import type { OidcSettingsWire } from './schemas.js';
import type { OidcSettingsView } from './model.js';

/** Unset optional fields are left out rather than sent as null, as Unleash's settings are. */
export function toOidcSettingsWire(settings: OidcSettingsView): OidcSettingsWire {
  const { discoverUrl, defaultRootRoleId, emailDomains, acrValues, groupJsonPath, ...always } = settings;
  return {
    ...always,
    ...(discoverUrl === null ? {} : { discoverUrl }),
    ...(defaultRootRoleId === null ? {} : { defaultRootRoleId }),
    ...(emailDomains === null ? {} : { emailDomains }),
    ...(acrValues === null ? {} : { acrValues }),
    ...(groupJsonPath === null ? {} : { groupJsonPath }),
  };
}
