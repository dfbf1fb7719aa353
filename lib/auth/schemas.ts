import * as z from 'zod';
import { userSchema } from '../users/schemas.js';
import { feedbackSchema } from '../user-settings/schemas.js';

/** `POST /auth/simple/login`: a username or an e-mail, and the password. */
export const loginSchema = z.object({
  username: z.string().trim().min(1).max(255),
  password: z.string().min(1).max(128),
});

/** A person as the login and GET /api/admin/user answer them: Unleash's user without `isAPI`. */
export const sessionUserSchema = userSchema.omit({ isAPI: true, inviteLink: true, emailSent: true });

/** An admin token calling GET /api/admin/user: Unleash's API user, without the token's secret. */
export const apiUserSchema = z.object({
  username: z.string(),
  permissions: z.array(z.string()),
  projects: z.array(z.string()),
  environment: z.string(),
  type: z.string(),
});

export const permissionSchema = z.object({
  permission: z.string(),
  project: z.string().optional(),
  environment: z.string().optional(),
});

/** Unleash's meSchema: who is calling, what they may do, and the feedback and splash screens the UI remembers for them. */
export const meSchema = z.object({
  user: z.union([sessionUserSchema, apiUserSchema]),
  permissions: z.array(permissionSchema),
  feedback: z.array(feedbackSchema),
  splash: z.record(z.string(), z.boolean()),
});

/** `GET /api/admin/user/roles`: Unleash answers 400 without a project. */
export const myRolesQuerySchema = z.object({ projectId: z.string().trim().min(1).max(100) });

/** `POST /api/admin/user/change-password`: Unleash's passwordSchema. */
export const passwordChangeSchema = z.object({
  password: z.string().max(128),
  confirmPassword: z.string().max(128),
  oldPassword: z.string().max(128),
});

/** `POST /api/admin/user-admin/reset-password`: the user's e-mail (what the UI sends) or numeric id. */
export const resetLinkRequestSchema = z.object({ id: z.string().trim().min(1).max(255) });
export const resetLinkSchema = z.object({ resetPasswordUrl: z.string() });

export const resetTokenQuerySchema = z.object({ token: z.string().min(1).max(200) });

/** Unleash's tokenUserSchema: whose reset link it is. */
export const resetTokenUserSchema = z.object({
  id: z.int(),
  name: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  token: z.string(),
  createdBy: z.string().nullable(),
  role: z.object({ id: z.int(), type: z.string(), name: z.string(), description: z.string().optional() }),
});

/** `POST /auth/reset/password`: Unleash's changePasswordSchema. */
export const resetPasswordSchema = z.object({ token: z.string().min(1).max(200), password: z.string().max(128) });

/** `POST /invite/{token}/signup`: Unleash's createInvitedUserSchema. */
export const inviteSignupSchema = z.object({
  username: z.string().trim().min(1).max(255).optional(),
  email: z.email().max(255),
  name: z.string().trim().min(1).max(255),
  password: z.string().max(128),
});

/** Unleash's simple-auth settings: whether the password login is turned off. */
export const passwordLoginSettingsSchema = z.strictObject({
  disabled: z.boolean(),
});
