import packageJson from '../../package.json' with { type: 'json' };
import { buildOpenApiDocument, type OpenApiDocument } from './openapi.js';
import { routeTable } from '../route-table.js';
import { once, textAsset } from './text-asset.js';

/** The document's own description, shown above the operations in Swagger UI. */
export const API_INFO = {
  title: 'serverless-toggles',
  version: packageJson.version,
  description:
    'A feature-toggle service that speaks the Unleash API, on AWS Lambda and DynamoDB. ' +
    'Send an API token in the `Authorization` header (the Authorize button): an admin token ' +
    '(`*:*.<secret>`) for /api/admin, an SDK token (`<project>:<environment>.<secret>`) for /api/client.',
};

export function openApiDocument(): OpenApiDocument {
  return buildOpenApiDocument(routeTable, API_INFO);
}

let serialized: string | undefined;

/**
 * The document as served: built on the first request and kept for the life of the process
 * (the route table cannot change while it runs), so later requests cost a string copy.
 */
export function openApiJson(): string {
  serialized ??= JSON.stringify(openApiDocument());
  return serialized;
}

/** The same text with its gzip form (265 KB of JSON compress to about a tenth). */
export const openApiAsset = once(() => textAsset(openApiJson()));
