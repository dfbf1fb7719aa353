import type * as z from 'zod';
import { permissionsOf } from '../roles/permissions.js';
import type { UserCaller } from '../sessions/model.js';
import type { Caller } from '../tokens/model.js';
import type { User } from '../users/model.js';
import type { UserUiSettings } from '../user-settings/model.js';
import { toUserWire } from '../users/wire.js';
import type { meSchema, sessionUserSchema } from './schemas.js';

/** A person as the login and GET /api/admin/user answer them: the User resource without `isAPI`. */
export function toSessionUserWire(user: User, unleashUrl: string): z.input<typeof sessionUserSchema> {
  const { isAPI: _isAPI, inviteLink: _inviteLink, emailSent: _emailSent, ...shown } = toUserWire(user, unleashUrl);
  return shown;
}

/**
 * Unleash's answer for a person: their user, their root role's permissions, and the feedback and
 * splash screens the UI remembers for them (the welcome dialog stays closed once closed).
 */
export function toMeWire(user: User, caller: UserCaller, unleashUrl: string, uiSettings: UserUiSettings): z.input<typeof meSchema> {
  return {
    user: toSessionUserWire(user, unleashUrl),
    permissions: permissionsOf(caller.rootRole).map((permission) => ({ permission })),
    feedback: uiSettings.feedback,
    splash: uiSettings.splash,
  };
}

/** An admin token's synthetic user, as Unleash answers it, but never with the token's secret; a token has no feedback or splash. */
export function toApiUserMeWire(caller: Caller): z.input<typeof meSchema> {
  return {
    user: { username: caller.tokenName, permissions: ['ADMIN'], projects: caller.projects, environment: caller.environment, type: caller.type },
    permissions: [{ permission: 'ADMIN' }],
    feedback: [],
    splash: {},
  };
}
