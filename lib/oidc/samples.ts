import { defineSamples } from '../samples.js';
import { oidcRoutes } from './routes.js';

export const oidcSamples = defineSamples(oidcRoutes, {
  'set-oidc-settings': {
    operation: 'setOidcSettings',
    body: {
      enabled: true,
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
});
