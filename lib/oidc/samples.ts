import { defineSamples } from '../samples.js';
import { oidcRoutes } from './routes.js';

export const oidcSamples = defineSamples(oidcRoutes, {
  // Saved off: the sample instance's people keep logging in with passwords, and no login asks idp.example.com.
  'set-oidc-settings': {
    operation: 'setOidcSettings',
    body: {
      enabled: false,
      discoverUrl: 'https://idp.example.com/.well-known/openid-configuration',
      clientId: 'toggles',
      secret: 'sample-client-secret',
      autoCreate: true,
      defaultRootRole: 'Viewer',
      emailDomains: 'example.com',
      idTokenSigningAlgorithm: 'RS256',
    },
    status: 200,
  },
  'set-oidc-settings-bad-url': {
    operation: 'setOidcSettings',
    body: {
      enabled: true,
      discoverUrl: 'not a url',
      clientId: 'toggles',
      secret: 'sample-client-secret',
      autoCreate: true,
      defaultRootRole: 'Viewer',
      emailDomains: 'example.com',
      idTokenSigningAlgorithm: 'RS256',
    },
    status: 400,
  },
  'get-oidc-settings': { operation: 'getOidcSettings', status: 200 },
  // With OIDC off both go back to the login page, which says why (test/integration/oidc-login.test.ts has the real flow).
  'start-oidc-login': { operation: 'startOidcLogin', query: { redirect: '/projects/default' }, status: 302 },
  'finish-oidc-login-without-state': { operation: 'finishOidcLogin', query: { code: 'made-up' }, status: 302 },
});
