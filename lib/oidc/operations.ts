import type { Services } from '../composition/services.js';
import type { OperationsFor } from '../http/operation.js';
import { LoginRefused } from './login.js';
import type { oidcRoutes } from './routes.js';
import { toOidcSettingsWire } from './wire.js';

export const oidcOperations = ({ oidcSettings, oidcLogin }: Services): OperationsFor<typeof oidcRoutes> => {
  /**
   * A login the service refuses goes back to the UI's login page, which shows the message
   * (Unleash's `errorMsg`); what the browser held of the login is cleared.
   */
  const refused = (error: unknown) => {
    if (!(error instanceof LoginRefused)) throw error;
    return { headers: { location: oidcLogin.refusedLocation(error.message), 'cache-control': 'no-store' }, cookies: [oidcLogin.forgetBrowserCookie()] };
  };
  const redirect = ({ location, cookies }: { location: string; cookies: string[] }) => ({
    headers: { location, 'cache-control': 'no-store' }, cookies,
  });
  return {
    getOidcSettings: async () => ({ body: toOidcSettingsWire(await oidcSettings.get()) }),
    setOidcSettings: async ({ body, caller }) => ({ body: toOidcSettingsWire(await oidcSettings.set(body, caller.tokenName)) }),
    startOidcLogin: async ({ query }) => oidcLogin.begin(query.redirect).then(redirect, refused),
    finishOidcLogin: async ({ query, cookies }) => oidcLogin.complete(query, cookies).then(redirect, refused),
  };
};
