import type { RoleWire, UserWire } from '../../lib/api/schemas/users.js';
import { ValidationFailed } from '../../lib/errors.js';
import type { RootRole } from '../../lib/roles/model.js';
import { signupUrl } from '../../lib/signup-tokens/model.js';
import { imageUrlOf, type User } from '../../lib/users/model.js';

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

/** Path ids are integers; anything else is a 400 naming the parameter, as Unleash's E11 does. */
export function integerId(value: string, parameter: string): number {
  const id = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(id)) throw new ValidationFailed(`${parameter}: ID should be an integer (got ${value})`);
  return id;
}
