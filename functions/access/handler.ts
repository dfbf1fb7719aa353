import type { Services } from '../../lib/composition/services.js';
import { functionHandler } from '../../lib/composition/function-handler.js';
import { wholeRootDefinition } from '../../lib/composition/group-handler.js';
import type { GroupOperations } from '../../lib/route-table.js';
import { oidcOperations } from '../../lib/oidc/operations.js';
import { signupTokenOperations } from '../../lib/signup-tokens/operations.js';
import { apiTokenOperations } from '../../lib/tokens/operations.js';
import { userOperations } from '../../lib/users/operations.js';
import { frontendSettingsOperations } from '../../lib/frontend/settings-operations.js';
import { authOperations } from '../../lib/auth/operations.js';

/** People's login and passwords, API tokens, users and roles, login settings, public signup tokens and the Frontend API's CORS origins (design §1). */
export const defineOperations = (services: Services): GroupOperations<'access'> => ({
  ...apiTokenOperations(services),
  ...userOperations(services),
  ...oidcOperations(services),
  ...signupTokenOperations(services),
  ...frontendSettingsOperations(services),
  ...authOperations(services),
});

export const definition = wholeRootDefinition('access', defineOperations);

export const handler = functionHandler(definition);
