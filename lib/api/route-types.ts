import type * as z from 'zod';

/** The endpoint groups: one Lambda function each, named after the interface's own headings. */
export const GROUPS = ['groups', 'strategies', 'features', 'projects', 'state', 'access', 'instance', 'client'] as const;
export type Group = (typeof GROUPS)[number];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';

/**
 * Who may call a route. `public` needs no token; `any-token` takes every valid API token
 * (client, backend or admin: the SDK API); `admin` takes admin tokens only, and
 * `permission` is the Unleash permission that a refused caller is told it lacks.
 */
export type Access = { kind: 'public' } | { kind: 'any-token' } | { kind: 'admin'; permission: string };

export interface RouteSpec {
  method: HttpMethod;
  /** API Gateway path syntax: `{param}` segments, `{proxy+}` for a greedy tail. */
  path: string;
  group: Group;
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
   * Kept out of the OpenAPI document: the authenticated not-found fallback, and the Swagger UI
   * page's static files, which belong to the page rather than to the API.
   */
  internal?: boolean;
}

/** Keeps each row's literal types so handlers get typed bodies and paths. */
export const route = <const R extends RouteSpec>(spec: R): R => spec;
