import type * as z from 'zod';
import { maxBodyBytesOf } from '../http/body-limit.js';
import { ERROR_TABLE } from '../http/error-table.js';
import { pathParameterNames, pathSchemaOf } from '../http/path-parameters.js';
import { GROUP_HEADINGS, HEADING_ORDER } from './group-headings.js';
import { SchemaWriter, type JsonSchema } from './openapi-schemas.js';
import type { RouteSpec } from '../http/route.js';
import { errorSchema } from '../http/schemas.js';

/**
 * The OpenAPI 3.1 document, generated from the route table and the very zod schemas that
 * validate requests, so it cannot drift from what the service accepts. OpenAPI 3.1 Schema
 * Objects are JSON Schema 2020-12, which zod 4 writes itself (`z.toJSONSchema`); see
 * docs/adr/0007-api-description.md for why no third-party converter sits in between.
 */

type Json = Record<string, unknown>;

export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: Json;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, Json> };
}

export const SECURITY_SCHEME = 'apiKey';
const JSON_TYPE = 'application/json';

/** What each error status means here; the names come from the one error table. */
const ERROR_MEANING: Record<number, string> = {
  400: 'the request breaks a rule; the message names the property',
  401: 'no API token, or one nobody issued',
  403: 'the token may not use this route (SDK tokens reach only /api/client)',
  404: 'no such resource',
  409: 'the name is taken, or the resource is in use or was changed concurrently',
  413: 'the body is larger than this route accepts',
  415: 'the body is not JSON (send Content-Type: application/json)',
  503: 'the data store could not be reached; try again',
};

/**
 * The error answers a route can give, derived from the row: a token check can fail (401) and an
 * admin route refuses SDK tokens (403); input can be invalid (400) where the route takes any;
 * a named resource can be missing (404); a write can meet a taken name, a resource in use or
 * a concurrent edit (409); a body can be too large (413) or, when it must be JSON, come with
 * another Content-Type (415); and every route that checks a token reads the store (503). The
 * SDK reporting routes refuse no body's content but a report above its cap (400), and answer
 * neither 409 nor 415. A deprecated full list refuses an answer over Lambda's 6 MB (400
 * ExceedsLimitError, naming its paginated replacement).
 */
export function errorStatuses(spec: RouteSpec): number[] {
  const hasPathParams = spec.path.includes('{');
  const strictBody = spec.body !== undefined && !spec.lenientBody;
  const statuses = new Set<number>();
  if (strictBody || spec.lenientBody === 'capped' || spec.query || hasPathParams || spec.pagedAlternative) statuses.add(400);
  if (spec.access.kind !== 'public') statuses.add(401);
  if (spec.access.kind === 'admin' || spec.access.kind === 'sdk' || spec.access.kind === 'frontend' || spec.access.kind === 'ofrep') statuses.add(403);
  if (hasPathParams) statuses.add(404);
  if (spec.method !== 'GET' && !spec.lenientBody) statuses.add(409);
  if (spec.body) statuses.add(413);
  if (strictBody) statuses.add(415);
  if (spec.access.kind !== 'public') statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

export function buildOpenApiDocument(routes: Record<string, RouteSpec>, info: OpenApiInfo): OpenApiDocument {
  const schemas = new SchemaWriter();
  const errorRef = schemas.named('Error', errorSchema);
  const paths: OpenApiDocument['paths'] = {};
  const usedGroups = new Set<string>();
  for (const [operationId, spec] of Object.entries(routes)) {
    if (spec.internal) continue;
    const path = spec.path.replace(/\+\}/g, '}');
    const method = spec.method === 'ANY' ? 'get' : spec.method.toLowerCase();
    (paths[path] ??= {})[method] = operation(operationId, spec, schemas, errorRef);
    usedGroups.add(spec.group);
  }
  return {
    openapi: '3.1.0',
    info: { ...info, license: { name: 'Apache-2.0', identifier: 'Apache-2.0' } },
    tags: HEADING_ORDER.filter((group) => usedGroups.has(group)).map((group) => GROUP_HEADINGS[group]),
    paths,
    components: {
      schemas: schemas.components,
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description:
            'An API token, as `Authorization: <token>`: `*:*.<secret>` (admin) reaches every route; ' +
            '`<project>:<environment>.<secret>` (client or backend, for SDKs) reaches only /api/client.',
        },
      },
    },
  };
}

function operation(operationId: string, spec: RouteSpec, schemas: SchemaWriter, errorRef: JsonSchema): Json {
  const parameters = [...pathParameters(spec.path, schemas, operationId), ...(spec.query ? queryParameters(spec.query, schemas, operationId) : [])];
  const errors = Object.fromEntries(errorStatuses(spec).map((status) => [String(status), errorResponse(spec, status, errorRef)]));
  return {
    operationId,
    summary: spec.summary,
    tags: [GROUP_HEADINGS[spec.group].name],
    ...(spec.deprecated ? { deprecated: true } : {}),
    ...(spec.access.kind === 'public' ? {} : { security: [{ [SECURITY_SCHEME]: [] }] }),
    ...(parameters.length > 0 ? { parameters } : {}),
    // The reporting routes read any body, or none, as JSON (see RouteSpec.lenientBody).
    ...(spec.body
      ? { requestBody: { required: !spec.lenientBody, content: { [JSON_TYPE]: { schema: schemas.write(spec.body, `${operationId}Request`) } } } }
      : {}),
    responses: { [String(spec.status)]: successResponse(operationId, spec, schemas), ...errors },
  };
}

/** One parameter per `{name}` in the path, described by its rule (lib/http/path-parameters.ts). */
function pathParameters(path: string, schemas: SchemaWriter, operationId: string): Json[] {
  const schema = schemas.write(pathSchemaOf(path), `${operationId}Path`);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return pathParameterNames(path).map((name) => ({ name, in: 'path', required: true, schema: properties[name] ?? { type: 'string' } }));
}

/** One parameter per property of the query schema; a property's description moves to the parameter. */
function queryParameters(query: z.ZodType, schemas: SchemaWriter, operationId: string): Json[] {
  const schema = schemas.write(query, `${operationId}Query`);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, { description, ...property }]) => ({
    name,
    in: 'query',
    required: required.has(name),
    ...(typeof description === 'string' ? { description } : {}),
    schema: property,
  }));
}

function successResponse(operationId: string, spec: RouteSpec, schemas: SchemaWriter): Json {
  const description = spec.summary;
  if (!spec.response && !spec.mediaTypes) return { description };
  const structured = spec.response ? schemas.write(spec.response, `${operationId}Response`) : undefined;
  const content = Object.fromEntries(
    (spec.mediaTypes ?? [JSON_TYPE]).map((type) => [
      type,
      // YAML carries the same structure as JSON; any other type (HTML, CSS) is just text.
      { schema: structured && /json|yaml/.test(type) ? structured : { type: 'string' } },
    ]),
  );
  return { description, content };
}

function errorResponse(spec: RouteSpec, status: number, errorRef: JsonSchema): Json {
  const name = Object.values(ERROR_TABLE).find((entry) => entry.status === status)?.name ?? 'Error';
  const limit = status === 413 ? ` (${maxBodyBytesOf(spec) / 1024} KB)` : '';
  return { description: `${name}: ${ERROR_MEANING[status] ?? 'see the message'}${limit}`, content: { [JSON_TYPE]: { schema: errorRef } } };
}
