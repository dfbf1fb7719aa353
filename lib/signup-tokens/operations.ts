import type { OperationsFor } from '../http/operation.js';
import { toUserWire } from '../users/wire.js';
import type { signupTokenRoutes } from './routes.js';
import type { SignupTokenService, SignupTokenView } from './service.js';
import { toSignupTokenWire } from './wire.js';

export const signupTokenOperations = ({ signupTokens, unleashUrl }: { signupTokens: SignupTokenService; unleashUrl: string }): OperationsFor<typeof signupTokenRoutes> => {
  const wire = (view: SignupTokenView) => toSignupTokenWire(view, unleashUrl);
  return {
    listSignupTokens: async () => ({ body: { tokens: (await signupTokens.list()).map(wire) } }),
    createSignupToken: async ({ body, caller }) => {
      const created = await signupTokens.create(body, caller.tokenName);
      return { body: wire(created), headers: { location: `tokens/${created.token.secret}` } };
    },
    getSignupToken: async ({ params }) => ({ body: wire(await signupTokens.get(params.token)) }),
    updateSignupToken: async ({ params, body }) => ({ body: wire(await signupTokens.update(params.token, body)) }),
    signUpWithToken: async ({ params, body, caller }) => {
      const user = await signupTokens.signUp(params.token, body, caller.tokenName);
      return { body: toUserWire(user, unleashUrl), headers: { location: `user-admin/${user.id}` } };
    },
  };
};
