import type { RoleWire, UserWire } from './schemas.js';
import type { RootRole } from '../roles/model.js';
import { signupUrl } from '../signup-tokens/model.js';
import { imageUrlOf, type User } from './model.js';

/**
 * The User resource, shared by the `access` and `groups` functions. `inviteLink` is the signup
 * link a user joined through; no e-mail is ever sent, so `emailSent` is false.
 */
export function toUserWire(user: User, unleashUrl: string): UserWire {
  return {
    id: user.id,
    isAPI: false,
    name: user.name,
    ...(user.email === null ? {} : { email: user.email }),
    username: user.username,
    imageUrl: imageUrlOf(user),
    ...(user.signupToken === null ? {} : { inviteLink: signupUrl(unleashUrl, user.signupToken) }),
    loginAttempts: user.loginAttempts,
    emailSent: false,
    rootRole: user.rootRole,
    seenAt: user.seenAt,
    createdAt: user.createdAt,
    accountType: 'User',
    permissions: [],
  };
}

export function toRoleWire(role: RootRole): RoleWire {
  return { id: role.id, type: role.type, name: role.name, description: role.description };
}

