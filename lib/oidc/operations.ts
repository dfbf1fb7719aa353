import { randomUUID } from 'node:crypto';
import { log } from '../log.js';
import type { OperationsFor } from '../http/operation.js';
import { LoginRefused, type OidcLoginService } from './login.js';
import { describe } from './provider.js';
import type { oidcRoutes } from './routes.js';
import type { OidcSettingsService } from './service.js';
import { toOidcSettingsWire } from './wire.js';

export const oidcOperations = ({ oidcSettings, oidcLogin }: { oidcSettings: OidcSettingsService; oidcLogin: OidcLoginService }): OperationsFor<typeof oidcRoutes> => {
  /**
   * A browser mid-login always gets a page, never a JSON error: a refused login goes back to
   * the UI's login page, which shows the message (Unleash's `errorMsg`); a failure on our side
   * (the store throttling, a write refused as too late) is logged and shown as one, to try
   * again. What the browser held of the login is cleared.
   */
  const refused = (state: string | undefined) => (error: unknown) => {
    let message = error instanceof LoginRefused ? error.message : '';
    if (!message) {
      const reference = randomUUID();
      log.error('OIDC login failed on our side', { reference, error: describe(error) });
      message = `The sign-in could not be finished on our side; try again in a moment. (Reference ${reference})`;
    }
    return { headers: { location: oidcLogin.refusedLocation(message), 'cache-control': 'no-store' }, cookies: oidcLogin.forgetBrowserCookie(state) };
  };
  const redirect = ({ location, cookies }: { location: string; cookies: string[] }) => ({
    headers: { location, 'cache-control': 'no-store' }, cookies,
  });
  return {
    getOidcSettings: async () => ({ body: toOidcSettingsWire(await oidcSettings.get()) }),
    setOidcSettings: async ({ body, caller }) => ({ body: toOidcSettingsWire(await oidcSettings.set(body, caller.tokenName)) }),
    startOidcLogin: async ({ query, cookies }) => oidcLogin.begin(query.redirect, cookies).then(redirect, refused(undefined)),
    finishOidcLogin: async ({ query, cookies }) => oidcLogin.complete(query, cookies).then(redirect, refused(query.state)),
  };
};
