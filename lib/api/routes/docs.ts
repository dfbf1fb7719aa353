import { route, type RouteSpec } from '../route-types.js';
import { openApiDocumentSchema } from '../schemas/docs.js';

/**
 * The API's own description and the Swagger UI page that shows it, open like /health: they
 * describe the API and hold no data, and Swagger UI itself asks for a token ("Authorize")
 * before it sends any request to /api. The page's two static files are rows too, so API
 * Gateway routes them to the instance function like any other path; they are `internal`
 * because they belong to the page, not to the API.
 */
export const docsRoutes = {
  getOpenApiDocument: route({
    method: 'GET', path: '/docs/openapi.json', group: 'instance', access: { kind: 'public' }, status: 200,
    summary: 'This API described as OpenAPI 3.1, generated from the route table; needs no token',
    response: openApiDocumentSchema,
  }),
  getDocsPage: route({
    method: 'GET', path: '/docs', group: 'instance', access: { kind: 'public' }, status: 200,
    summary: 'Swagger UI for this API; needs no token', mediaTypes: ['text/html'],
  }),
  getSwaggerUiStyles: route({
    method: 'GET', path: '/docs/swagger-ui.css', group: 'instance', access: { kind: 'public' }, status: 200,
    summary: "Swagger UI's style sheet", mediaTypes: ['text/css'], internal: true,
  }),
  getSwaggerUiScript: route({
    method: 'GET', path: '/docs/swagger-ui-bundle.js', group: 'instance', access: { kind: 'public' }, status: 200,
    summary: "Swagger UI's script", mediaTypes: ['text/javascript'], internal: true,
  }),
} as const satisfies Record<string, RouteSpec>;
