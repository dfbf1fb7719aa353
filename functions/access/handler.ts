import { functionHandler, type FunctionDefinition } from '../../lib/composition/function-handler.js';
import { adminEdge } from '../../lib/composition/session-edge.js';
import { apiTokens } from '../../lib/composition/slices/api-tokens.js';
import { auth } from '../../lib/composition/slices/auth.js';
import { frontendSettings } from '../../lib/composition/slices/frontend-settings.js';
import { oidc } from '../../lib/composition/slices/oidc.js';
import { personalTokens } from '../../lib/composition/slices/personal-access-tokens.js';
import { signupTokens } from '../../lib/composition/slices/signup-tokens.js';
import { userSettings } from '../../lib/composition/slices/user-settings.js';
import { users } from '../../lib/composition/slices/users.js';

/** People's login and passwords, API tokens, users and roles, login settings, public signup tokens, the Frontend API's CORS origins, personal access tokens and what the admin UI remembers per person (design §1). */
export const definition: FunctionDefinition = {
  group: 'access',
  compose: (c) => ({
    apiTokens: c.once(apiTokens),
    users: c.once(users),
    oidc: c.once(oidc),
    signupTokens: c.once(signupTokens),
    frontendSettings: c.once(frontendSettings),
    auth: c.once(auth),
    personalTokens: c.once(personalTokens),
    userSettings: c.once(userSettings),
  }),
  admin: adminEdge,
};

export const handler = functionHandler(definition);
