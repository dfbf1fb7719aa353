import type { OidcSettings, PendingLogin } from './model.js';

/** The OIDC settings store port: one settings item, replaced as a whole. */
export interface OidcSettingsStore {
  get(): Promise<OidcSettings | undefined>;
  put(settings: OidcSettings): Promise<void>;
}

/** Logins under way, between the redirect to the provider and its callback. */
export interface PendingLoginStore {
  insert(login: PendingLogin): Promise<void>;
  /**
   * Removes the login of this state and answers it, in one write: of two callbacks with the same
   * state (a replay, a double click) only one gets it. Undefined when there is none (any more).
   */
  take(stateHash: string): Promise<PendingLogin | undefined>;
}
