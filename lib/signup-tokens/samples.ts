import { defineSamples } from '../samples.js';
import { signupTokenRoutes } from './routes.js';

export const signupTokenSamples = defineSamples(signupTokenRoutes, {
  'create-signup-token': {
    operation: 'createSignupToken',
    body: { name: 'team-onboarding', expiresAt: '2030-01-01T00:00:00.000Z' },
    status: 201,
  },
  'list-signup-tokens': { operation: 'listSignupTokens', status: 200 },
  'get-unknown-signup-token': {
    operation: 'getSignupToken',
    params: { token: '0123456789abcdef0123456789abcdef' },
    status: 404,
  },
  'update-unknown-signup-token': {
    operation: 'updateSignupToken',
    params: { token: '0123456789abcdef0123456789abcdef' },
    body: { enabled: false },
    status: 404,
  },
  'sign-up-with-unknown-token': {
    operation: 'signUpWithToken',
    params: { token: '0123456789abcdef0123456789abcdef' },
    body: { email: 'grace@example.com', name: 'Grace' },
    status: 404,
  },
});
