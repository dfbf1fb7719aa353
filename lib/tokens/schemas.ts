import * as z from 'zod';
import { isoDateTime } from '../http/schemas.js';

export const API_TOKEN_TYPES = ['client', 'backend', 'frontend', 'admin'] as const;

/**
 * `POST /api/admin/api-tokens`, in Unleash's shape: `tokenName` (or the older `username`),
 * a case-insensitive `type`, an `environment`, and `project` or `projects`.
 */
export const apiTokenCreateSchema = z
  .object({
    tokenName: z.string().trim().min(1).max(200).optional(),
    username: z.string().trim().min(1).max(200).optional(),
    type: z
      .string()
      .transform((type) => type.toLowerCase())
      .pipe(z.enum(API_TOKEN_TYPES, { error: `must be one of ${API_TOKEN_TYPES.join(', ')}` })),
    environment: z.string().min(1).max(100).optional(),
    project: z.string().min(1).max(100).optional(),
    projects: z.array(z.string().min(1).max(100)).min(1).max(1000).optional(),
    expiresAt: isoDateTime.optional(),
    /**
     * This service's own: the secret of a token brought from another server (npm run migrate),
     * so the SDKs that hold it keep working. Left out, a new secret is made, as in Unleash.
     */
    secret: z.string().min(1).max(400).optional(),
  })
  .refine((body) => (body.tokenName === undefined) !== (body.username === undefined), {
    error: 'give exactly one of tokenName or username',
    path: ['tokenName'],
  })
  .refine((body) => body.project === undefined || body.projects === undefined, {
    error: 'give project or projects, not both',
    path: ['projects'],
  });
export type ApiTokenCreateInput = z.infer<typeof apiTokenCreateSchema>;

/**
 * `POST /api/admin/projects/{projectId}/api-tokens`, Unleash's createProjectApiTokenSchema: a
 * client, backend or frontend token of the path's project (never an admin token), and, as on
 * the instance route, an optional known secret.
 */
export const projectApiTokenCreateSchema = z.object({
  tokenName: z.string().trim().min(1).max(200),
  type: z
    .string()
    .transform((type) => type.toLowerCase())
    .pipe(z.enum(['client', 'backend', 'frontend'], { error: 'must be one of client, backend, frontend' })),
  environment: z.string().min(1).max(100).optional(),
  expiresAt: isoDateTime.optional(),
  secret: z.string().min(1).max(400).optional(),
});

export const apiTokenSchema = z.object({
  /** The whole secret when the token is created; in a list, the masked secret and the token's id (listedSecretOf), which DELETE takes. */
  secret: z.string(),
  tokenId: z.string(),
  tokenName: z.string(),
  username: z.string(),
  type: z.enum(API_TOKEN_TYPES),
  environment: z.string(),
  project: z.string(),
  projects: z.array(z.string()),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  seenAt: z.string().nullable(),
  alias: z.null(),
});
export type ApiTokenWire = z.infer<typeof apiTokenSchema>;

export const apiTokenListSchema = z.object({ tokens: z.array(apiTokenSchema) });
