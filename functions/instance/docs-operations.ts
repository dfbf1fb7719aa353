import { routeTable } from '../../lib/api/route-table.js';
import type { docsRoutes } from '../../lib/api/routes/docs.js';
import { openApiJson } from '../../lib/docs/api-description.js';
import { ASSET_CACHE_CONTROL, SWAGGER_UI_FILES, swaggerUiAsset, swaggerUiPage, type SwaggerUiFile } from '../../lib/docs/swagger-ui.js';
import type { OperationsFor } from '../../lib/http/operation.js';

const page = swaggerUiPage({
  document: routeTable.getOpenApiDocument.path,
  styles: routeTable.getSwaggerUiStyles.path,
  script: routeTable.getSwaggerUiScript.path,
});

/**
 * The API description and its Swagger UI page. `json` sends a body that is already text; for
 * the page and its files the content type header says what that text is.
 */
export const defineDocsOperations = (): OperationsFor<typeof docsRoutes> => ({
  getOpenApiDocument: async () => ({ json: openApiJson() }),
  getDocsPage: async () => ({ json: page, headers: { 'content-type': 'text/html; charset=utf-8' } }),
  getSwaggerUiStyles: () => asset('styles'),
  getSwaggerUiScript: () => asset('script'),
});

async function asset(name: SwaggerUiFile) {
  return {
    json: await swaggerUiAsset(name),
    headers: { 'content-type': SWAGGER_UI_FILES[name].contentType, 'cache-control': ASSET_CACHE_CONTROL },
  };
}
