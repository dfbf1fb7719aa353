import type { SignupTokenWire } from './schemas.js';
import { rootRoleById } from '../roles/model.js';
import type { SignupTokenView } from './service.js';
import { toRoleWire, toUserWire } from '../users/wire.js';

export function toSignupTokenWire({ token, enabled, url, users }: SignupTokenView, unleashUrl: string): SignupTokenWire {
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
