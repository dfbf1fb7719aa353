import { PUBLIC, defineRoutes } from '../http/route.js';
import { openApiDocumentSchema } from './schemas.js';

/**
 * The API's own description and the Swagger UI page that shows it, open like /health: they
 * describe the API and hold no data, and Swagger UI itself asks for a token ("Authorize")
 * before it sends any request to /api. The page's two static files are rows too, so API
 * Gateway routes them to the instance function like any other path; they are `internal`
 * because they belong to the page, not to the API.
 */
export const docsRoutes = defineRoutes('instance', {
  getOpenApiDocument: {
    method: 'GET', path: '/docs/openapi.json', access: PUBLIC, status: 200,
    summary: 'This API described as OpenAPI 3.1, generated from the route table; needs no token',
    response: openApiDocumentSchema,
  },
  getDocsPage: {
    method: 'GET', path: '/docs', access: PUBLIC, status: 200,
    summary: 'Swagger UI for this API; needs no token', mediaTypes: ['text/html'],
  },
  getSwaggerUiStyles: {
    method: 'GET', path: '/docs/swagger-ui.css', access: PUBLIC, status: 200,
    summary: "Swagger UI's style sheet", mediaTypes: ['text/css'], internal: true,
  },
  getSwaggerUiScript: {
    method: 'GET', path: '/docs/swagger-ui-bundle.js', access: PUBLIC, status: 200,
    summary: "Swagger UI's script", mediaTypes: ['text/javascript'], internal: true,
  },
});
