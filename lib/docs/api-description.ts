import packageJson from '../../package.json' with { type: 'json' };
import { buildOpenApiDocument, type OpenApiDocument } from './openapi.js';
import type { RouteSpec } from '../http/route.js';
import { once, textAsset, type TextAsset } from './text-asset.js';

/** The document's own description, shown above the operations in Swagger UI. */
export const API_INFO = {
  title: 'serverless-toggles',
  version: packageJson.version,
  description:
    'A feature-toggle service that speaks the Unleash API, on AWS Lambda and DynamoDB. ' +
    'Send an API token in the `Authorization` header (the Authorize button): an admin token ' +
    '(`*:*.<secret>`) for /api/admin, an SDK token (`<project>:<environment>.<secret>`) for /api/client.',
};

/** The API's rows, the route table (lib/route-table.ts), as the caller passes them: lib/docs does not import the table that lists its own rows. */
export type ApiRows = Readonly<Record<string, RouteSpec>>;

export function openApiDocument(rows: ApiRows): OpenApiDocument {
  return buildOpenApiDocument(rows, API_INFO);
}

const serialized = new WeakMap<ApiRows, string>();

/**
 * The document as served: built on the first request and kept for the life of the process
 * (the route table cannot change while it runs), so later requests cost a string copy.
 */
export function openApiJson(rows: ApiRows): string {
  let json = serialized.get(rows);
  if (json === undefined) {
    json = JSON.stringify(openApiDocument(rows));
    serialized.set(rows, json);
  }
  return json;
}

/** The same text with its gzip form (265 KB of JSON compress to about a tenth), made on first use. */
export const openApiAssetOf = (rows: ApiRows): (() => Promise<TextAsset>) => once(() => textAsset(openApiJson(rows)));
