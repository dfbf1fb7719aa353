import type { signupTokenRoutes } from './routes.js';
import type { SignupTokenWire } from './schemas.js';
import type { OperationsFor } from '../http/operation.js';
import { rootRoleById } from '../roles/model.js';
import type { Services } from '../composition/services.js';
import type { SignupTokenView } from './service.js';
import { toRoleWire, toUserWire } from '../users/wire.js';

export const signupTokenOperations = ({ signupTokens, config }: Services): OperationsFor<typeof signupTokenRoutes> => {
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
