import type { signupTokenRoutes } from '../../lib/api/routes/signup-tokens.js';
import type { SignupTokenWire } from '../../lib/api/schemas/signup-tokens.js';
import type { OperationsFor } from '../../lib/http/operation.js';
import { rootRoleById } from '../../lib/roles/model.js';
import type { Services } from '../../lib/services.js';
import type { SignupTokenView } from '../../lib/signup-tokens/service.js';
import { toRoleWire, toUserWire } from '../commons/access-wire.js';

export const defineSignupTokenOperations = ({ signupTokens, config }: Services): OperationsFor<typeof signupTokenRoutes> => {
  const wire = (view: SignupTokenView) => toWire(view, config.unleashUrl);
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

function toWire({ token, enabled, url, users }: SignupTokenView, unleashUrl: string): SignupTokenWire {
  const role = rootRoleById(token.roleId);
  if (!role) throw new Error(`Signup token ${token.name} has an unknown role ${token.roleId}`);
  const { description: _description, ...shownRole } = toRoleWire(role);
  return {
    secret: token.secret,
    url,
    name: token.name,
    enabled,
    expiresAt: token.expiresAt,
    createdAt: token.createdAt,
    createdBy: token.createdBy,
    users: users.map((user) => toUserWire(user, unleashUrl)),
    role: shownRole,
  };
}
