import { publicUrlOf } from '../config.js';
import { sessionSettingsOf } from '../sessions/model.js';
import type { Slice, SliceContext } from '../slice.js';
import { SsoAccounts } from './accounts.js';
import { OidcLoginService } from './login.js';
import { oidcOperations } from './operations.js';
import type { OidcPorts } from './ports.js';
import { IdentityProviders } from './provider.js';
import { oidcRoutes } from './routes.js';

/** Single sign-on through OpenID Connect: its settings, and the login through the provider they name (E3). */
export function oidcSlice({ config, now }: SliceContext, ports: OidcPorts) {
  // Plain http to a provider only where the service runs on a laptop.
  const providers = new IdentityProviders({ allowHttp: config.dynamodbEndpoint !== undefined }, now);
  const oidcLogin = new OidcLoginService(
    ports.settings, providers, ports.secretBox, new SsoAccounts(ports.users), ports.logins, ports.memberships, ports.sessions,
    { publicUrl: publicUrlOf(config), secureCookies: sessionSettingsOf(config).cookie.secure }, now,
  );
  return {
    routes: oidcRoutes,
    operations: oidcOperations({ oidcSettings: ports.settings, oidcLogin }),
    oidcLogin,
  } satisfies Slice<typeof oidcRoutes> & Record<string, unknown>;
}
