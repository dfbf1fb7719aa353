import type { Services } from '../composition/services.js';
import type { OperationsFor } from '../http/operation.js';
import { toUserWire } from '../users/wire.js';
import type { signupTokenRoutes } from './routes.js';
import type { SignupTokenView } from './service.js';
import { toSignupTokenWire } from './wire.js';

export const signupTokenOperations = ({ signupTokens, config }: Services): OperationsFor<typeof signupTokenRoutes> => {
  const wire = (view: SignupTokenView) => toSignupTokenWire(view, config.unleashUrl);
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
      return { body: toUserWire(user, config.unleashUrl), headers: { location: `user-admin/${user.id}` } };
    },
  };
};
