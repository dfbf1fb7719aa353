import * as z from 'zod';

/** A root role as Unleash takes it: its id, its id as a string, or its name. */
const rootRoleInput = z.union([z.int(), z.string().min(1)]);

/** `POST /api/admin/user-admin`: an e-mail or a username (or both), and a root role. */
export const userCreateSchema = z.object({
  email: z.email().max(255).nullish(),
  name: z.string().max(255).nullish(),
  username: z.string().trim().min(1).max(255).nullish(),
  rootRole: rootRoleInput,
  /** Unleash takes a first password here; stored as a hash (lib/users/password.ts), never answered. */
  password: z.string().max(128).optional(),
  /** Accepted and ignored: this service sends no e-mail (`emailSent` is always false). */
  sendEmail: z.boolean().optional(),
});
export type UserCreateInput = z.infer<typeof userCreateSchema>;

/** `PUT /api/admin/user-admin/{id}`: fields left out keep their value, as in Unleash. */
export const userUpdateSchema = z.object({
  email: z.email().max(255).nullish(),
  name: z.string().max(255).nullish(),
  username: z.string().trim().min(1).max(255).nullish(),
  rootRole: rootRoleInput.optional(),
  /**
   * This service's own: true vouches for the user's e-mail (so their first single sign-on login
   * may link to this account), false withdraws it. A changed e-mail is vouched for without it.
   */
  emailVerified: z.boolean().optional(),
});
export type UserUpdateInput = z.infer<typeof userUpdateSchema>;

/** Signing up through a public signup token: the token decides the root role. */
export const signupSchema = userCreateSchema.omit({ rootRole: true, sendEmail: true, password: true });

/** The interface's User resource. */
export const userSchema = z.object({
  id: z.int(),
  isAPI: z.boolean(),
  name: z.string().nullable(),
  email: z.string().optional(),
  username: z.string().nullable(),
  imageUrl: z.string(),
  inviteLink: z.string().optional(),
  loginAttempts: z.int(),
  emailSent: z.boolean(),
  rootRole: z.int(),
  seenAt: z.string().nullable(),
  createdAt: z.string(),
  accountType: z.string(),
  permissions: z.array(z.string()),
});
export type UserWire = z.infer<typeof userSchema>;

export const roleSchema = z.object({
  id: z.int(),
  type: z.string(),
  name: z.string(),
  description: z.string().optional(),
  project: z.string().nullable().optional(),
});
export type RoleWire = z.infer<typeof roleSchema>;

/** Unleash's user list: the users and the root roles they can have. */
export const userListSchema = z.object({ users: z.array(userSchema), rootRoles: z.array(roleSchema) });

export const roleListSchema = z.object({ version: z.literal(1), roles: z.array(roleSchema) });

/** Unleash's usersGroupsBaseSchema: who can be picked in the access dialogs, without their details. */
export const usersAndGroupsSchema = z.object({
  users: z.array(z.object({
    id: z.int(),
    name: z.string().nullable(),
    username: z.string().nullable(),
    email: z.string().optional(),
    accountType: z.string(),
  })),
  groups: z.array(z.object({ id: z.int(), name: z.string(), userCount: z.int(), rootRole: z.int().nullable() })),
});

/** Unleash's adminCountSchema. */
export const adminCountSchema = z.object({ password: z.int(), noPassword: z.int(), service: z.int() });

/** Unleash's inactiveUsersSchema. */
export const inactiveUsersSchema = z.object({
  version: z.literal(1),
  inactiveUsers: z.array(z.object({
    id: z.int(),
    name: z.string().nullable(),
    email: z.string().optional(),
    username: z.string().nullable(),
    seenAt: z.string().nullable(),
    createdAt: z.string(),
    patSeenAt: z.string().nullable(),
  })),
});

/** Unleash's idsSchema: the users to delete from the inactive list. */
export const userIdsSchema = z.object({ ids: z.array(z.int().positive()).max(1000) });

const permissionEntrySchema = z.object({
  id: z.int(),
  name: z.string(),
  displayName: z.string(),
  type: z.enum(['root', 'project', 'environment']),
  environment: z.string().optional(),
});

/** Unleash's available permissions: root, project, and per environment. */
export const permissionCatalogueSchema = z.object({
  version: z.literal(1),
  permissions: z.object({
    root: z.array(permissionEntrySchema),
    project: z.array(permissionEntrySchema),
    environments: z.array(z.object({ name: z.string(), permissions: z.array(permissionEntrySchema) })),
  }),
});

/** `GET /api/admin/user-admin/{id}/permissions`: the project and environment to check permissions in. */
export const accessOverviewQuerySchema = z.object({
  project: z.string().trim().min(1).max(100).optional(),
  environment: z.string().trim().min(1).max(100).optional(),
});

const checkedPermissionSchema = permissionEntrySchema.extend({ hasPermission: z.boolean() });

/** Unleash's userAccessOverviewSchema: every permission, whether the user has it, and their roles. */
export const accessOverviewSchema = z.object({
  overview: z.object({
    root: z.array(checkedPermissionSchema),
    project: z.array(checkedPermissionSchema),
    environment: z.array(checkedPermissionSchema),
  }),
  user: userSchema.omit({ isAPI: true }),
  rootRole: roleSchema,
  projectRoles: z.array(roleSchema),
});

/** Unleash's passwordSchema: checking a password's strength, and an admin setting another user's. */
export const passwordSchema = z.object({ password: z.string().max(128) });
