import { defineSamples } from '../samples.js';
import { personalTokenRoutes } from './routes.js';

/** The sample events call with an admin API token, which is no user: Unleash refuses it personal access tokens. */
export const personalTokenSamples = defineSamples(personalTokenRoutes, {
  'get-pats-as-api-token': { operation: 'getPats', status: 403 },
  'create-pat-as-api-token': {
    operation: 'createPat', body: { description: 'terraform {{UNIQUE}}', expiresAt: '2099-01-01T00:00:00.000Z' }, status: 403,
  },
  'create-pat-no-expiry': { operation: 'createPat', body: { description: 'terraform {{UNIQUE}}' }, status: 400 },
  'delete-pat-as-api-token': { operation: 'deletePat', params: { id: '1' }, status: 403 },
});
