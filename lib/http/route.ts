import type * as z from 'zod';
import { pathSchemaOf, type PathParameter, type PathParamNames } from './path-parameters.js';
import type { Permission } from '../roles/model.js';

/** The endpoint groups: one Lambda function each, named after the interface's own headings. */
export const GROUPS = ['groups', 'strategies', 'features', 'projects', 'state', 'access', 'instance', 'client', 'frontend'] as const;
export type Group = (typeof GROUPS)[number];

/**
 * The groups SDKs call on every poll or page view: the SDK and Frontend APIs. They run without the
 * request deadline (they write only usage, and its async context would cost every poll:
 * RouterOptions.keepsDeadline), with the runtime's AWS SDK as CommonJS (infra/bundling.ts), and
 * without Lambda's START and REPORT lines (infra: quietPlatformLogs).
 */
export const SDK_GROUPS: ReadonlySet<Group> = new Set<Group>(['client', 'frontend']);

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | 'ANY';

/** The Unleash permission an admin route requires; the root roles decide who holds it (lib/roles). */
export type { Permission };

/**
 * Who may call a route. `public` needs no token; `any-token` takes every valid API token;
 * `sdk` the tokens of server-side SDKs (client, backend) and admin tokens, as Unleash's
 * /api/client does; `frontend` frontend and admin tokens (/api/frontend); `ofrep` the tokens an
 * OpenFeature provider is configured with, frontend, client and backend alike, in
 * `Authorization` or `X-API-Key`, never an admin token; `admin` admin tokens only, and
 * `permission` is the Unleash permission that a refused caller is told it lacks.
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'any-token' }
  | { kind: 'sdk' }
  | { kind: 'frontend' }
  | { kind: 'ofrep' }
  | { kind: 'admin'; permission: Permission };

/** No token needed (health, the API description). */
export const PUBLIC = { kind: 'public' } as const;
/** Any valid API token (the answer to a path no route covers). */
export const ANY_TOKEN = { kind: 'any-token' } as const;
/** A server-side SDK's token (client or backend) or an admin token: the SDK API. */
export const SDK_TOKEN = { kind: 'sdk' } as const;
/** A frontend token or an admin token: the Frontend API of browser and mobile SDKs. */
export const FRONTEND_TOKEN = { kind: 'frontend' } as const;
/** A frontend, client or backend token, as OpenFeature's OFREP providers send it: the OFREP routes. */
export const OFREP_TOKEN = { kind: 'ofrep' } as const;
/** An admin token, refused without `permission`. */
export const admin = <const P extends Permission>(permission: P) => ({ kind: 'admin', permission }) as const;

export interface RouteSpec {
  method: HttpMethod;
  /**
   * API Gateway path syntax: `{param}` segments, `{proxy+}` for a greedy tail. Each parameter is
   * parsed by its rule in path-parameters.ts (`params` below, filled in by `defineRoutes`).
   */
  path: string;
  /** Which endpoint group (Lambda function) serves it; declared once per module by `defineRoutes`. */
  group: Group;
  /** Parses API Gateway's `pathParameters`; built from the path by `defineRoutes`. */
  params: z.ZodType;
  access: Access;
  summary: string;
  /** Present on routes that take a JSON body; only those parse JSON and check Content-Type. */
  body?: z.ZodType;
  /**
   * SDK reporting routes (register, metrics): the body is read as JSON whatever its
   * Content-Type, and text that is not JSON reaches the schema as `undefined` instead of
   * failing, because the Node SDK stops reporting for good after a 400 or a 415. `'capped'`:
   * the schema still refuses one thing, a report above its documented cap (400).
   */
  lenientBody?: boolean | 'capped';
  /** The largest body accepted, in bytes (413 above it); 100 KB unless the row says otherwise. */
  maxBodyBytes?: number;
  query?: z.ZodType;
  /** The success body's wire shape; absent when the success response has no body. */
  response?: z.ZodType;
  /**
   * The success body's media types when it is not only JSON, the default first (the docs page
   * is HTML; the state export answers YAML on request). The OpenAPI document lists them.
   */
  mediaTypes?: readonly string[];
  status: number;
  deprecated?: boolean;
  /**
   * A deprecated full list's paginated replacement (`/api/admin/search/features?offset=0&limit=100`):
   * when this route's answer cannot fit Lambda's 6 MB, the caller is told to page through it
   * (400 ExceedsLimitError, lib/http/large-answers.ts) instead of getting an opaque 500.
   */
  pagedAlternative?: string;
  /**
   * Kept out of the OpenAPI document: the authenticated not-found fallback, and the Swagger UI
   * page's static files, which belong to the page rather than to the API.
   */
  internal?: boolean;
}

/**
 * A row as a resource module writes it: its group and path schema come from `defineRoutes`, so
 * a row that names either does not compile.
 */
export type RouteRow = Omit<RouteSpec, 'group' | 'params'> & { group?: never; params?: never };

/**
 * One resource module's rows, all served by `group`'s function. Keeps each row's literal types
 * (paths, access, schemas) so handlers get typed input, and derives each row's path schema.
 */
export function defineRoutes<G extends Group, const Rows extends Record<string, RouteRow>>(
  group: G,
  rows: Rows & KnownPathParameters<Rows>,
): { [K in keyof Rows]: Rows[K] & { group: G; params: z.ZodType } } {
  return Object.fromEntries(
    Object.entries(rows).map(([id, row]) => [id, { ...row, group, params: pathSchemaOf(row.path) }]),
  ) as { [K in keyof Rows]: Rows[K] & { group: G; params: z.ZodType } };
}

/** Refuses, at compile time, a row whose path names a parameter with no rule in path-parameters.ts. */
type KnownPathParameters<Rows extends Record<string, RouteRow>> = {
  [K in keyof Rows]: [Exclude<PathParamNames<Rows[K]['path']>, PathParameter>] extends [never]
    ? unknown
    : { path: `no rule for {${Exclude<PathParamNames<Rows[K]['path']>, PathParameter>}} in lib/http/path-parameters.ts` };
};
