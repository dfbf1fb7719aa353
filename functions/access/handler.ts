import { groupHandler } from '../../lib/http/group-handler.js';
import type { GroupOperations } from '../../lib/http/operation.js';
import type { Services } from '../../lib/services.js';
import { defineAuthSettingsOperations } from './auth-settings-operations.js';
import { defineSignupTokenOperations } from './signup-token-operations.js';
import { defineTokenOperations } from './token-operations.js';
import { defineUserOperations } from './user-operations.js';

/** API tokens, users and roles, login settings and public signup tokens (design §1). */
export const defineOperations = (services: Services): GroupOperations<'access'> => ({
  ...defineTokenOperations(services),
  ...defineUserOperations(services),
  ...defineAuthSettingsOperations(services),
  ...defineSignupTokenOperations(services),
});

export const handler = groupHandler('access', defineOperations);
