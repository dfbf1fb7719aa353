import { defineSamples } from '../samples.js';
import { ofrepRoutes } from './routes.js';

/**
 * What an OpenFeature provider sends: JSON, a client token (made by the setup step; an admin
 * token is refused here), and from a browser the page's origin.
 */
const PROVIDER = {
  accept: 'application/json',
  'content-type': 'application/json; charset=utf-8',
  authorization: 'Bearer {{CLIENT_TOKEN}}',
  origin: 'https://app.example.com',
};
const withClientToken = ['access/create-client-token'];

export const ofrepSamples = defineSamples(ofrepRoutes, {
  'ofrep-flag': {
    operation: 'evaluateOfrepFlag',
    params: { featureName: 'sample-feature-{{UNIQUE}}' },
    body: { context: { targetingKey: 'user-42', region: 'eu' } },
    headers: PROVIDER,
    token: 'none',
    given: ['features/create-feature', ...withClientToken],
    status: 200,
  },
  'ofrep-flags': {
    operation: 'evaluateOfrepFlags',
    body: { context: { targetingKey: 'user-42', region: 'eu' } },
    headers: PROVIDER,
    token: 'none',
    given: withClientToken,
    status: 200,
  },
  'ofrep-preflight': {
    operation: 'preflightOfrepFlags',
    headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    status: 204,
  },
  'ofrep-preflight-flag': {
    operation: 'preflightOfrepFlag',
    params: { featureName: 'sample-feature' },
    headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key,content-type' },
    status: 204,
  },
});
