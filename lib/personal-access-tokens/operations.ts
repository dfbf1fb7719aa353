import { PermissionDenied } from '../errors.js';
import type { OperationsFor } from '../http/operation.js';
import { isUserCaller, type UserCaller } from '../sessions/model.js';
import type { Caller } from '../tokens/model.js';
import type { personalTokenRoutes } from './routes.js';
import type { PersonalTokenService } from './service.js';

/** Unleash's refusal: a personal access token belongs to a user, and an API token is none. */
function personOf(caller: Caller): UserCaller {
  if (!isUserCaller(caller)) throw new PermissionDenied('READ_UI_CONFIG', 'PATs require an authenticated user.');
  return caller;
}

export function personalTokenOperations({ personalTokens }: { personalTokens: PersonalTokenService }): OperationsFor<typeof personalTokenRoutes> {
  return {
    getPats: async ({ caller }) => ({ body: { pats: await personalTokens.list(personOf(caller).userId) } }),
    createPat: async ({ caller, body }) => {
      const person = personOf(caller);
      const created = await personalTokens.create(person.userId, body, person.tokenName);
      return { body: created, headers: { location: `api/admin/user/tokens/${created.id}` } };
    },
    deletePat: async ({ caller, params }) => {
      const person = personOf(caller);
      await personalTokens.delete(person.userId, params.id, person.tokenName);
      return {};
    },
  };
}
