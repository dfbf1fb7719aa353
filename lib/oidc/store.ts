import type { OidcSettings } from './model.js';

/** The OIDC settings store port: one settings item, replaced as a whole. */
export interface OidcSettingsStore {
  get(): Promise<OidcSettings | undefined>;
  put(settings: OidcSettings): Promise<void>;
}

