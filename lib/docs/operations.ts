import { docsRoutes } from './routes.js';
import { ASSET_CACHE_CONTROL, SWAGGER_UI_FILES, swaggerUiAsset, swaggerUiPage } from './swagger-ui.js';
import type { TextAsset } from './text-asset.js';
import { acceptsGzip } from '../http/accept-encoding.js';
import type { OperationsFor } from '../http/operation.js';

/**
 * The page for a service whose public paths start with `baseUriPath` (BASE_URI_PATH: `/toggles`
 * behind a custom domain's API mapping key `toggles`, '' at the root), so its files load from
 * under the key rather than from the domain's root.
 */
const pageFor = (baseUriPath: string) =>
  swaggerUiPage({
    document: `${baseUriPath}${docsRoutes.getOpenApiDocument.path}`,
    styles: `${baseUriPath}${docsRoutes.getSwaggerUiStyles.path}`,
    script: `${baseUriPath}${docsRoutes.getSwaggerUiScript.path}`,
  });

type Headers = Record<string, string | undefined>;

/**
 * The API description and its Swagger UI page. `json` sends a body that is already text; for
 * the page and its files the content type header says what that text is.
 */
export const docsOperations = (
  { baseUriPath = '', openApi }: { baseUriPath?: string | undefined; openApi: () => Promise<TextAsset> },
): OperationsFor<typeof docsRoutes> => {
  const page = pageFor(baseUriPath);
  return {
    getOpenApiDocument: async ({ headers }) => send(await openApi(), 'application/json; charset=utf-8', headers),
    getDocsPage: async () => ({ json: page.html, headers: { 'content-type': 'text/html; charset=utf-8', ...page.headers } }),
    getSwaggerUiStyles: async ({ headers }) =>
      send(await swaggerUiAsset('styles'), SWAGGER_UI_FILES.styles.contentType, headers, ASSET_CACHE_CONTROL),
    getSwaggerUiScript: async ({ headers }) =>
      send(await swaggerUiAsset('script'), SWAGGER_UI_FILES.script.contentType, headers, ASSET_CACHE_CONTROL),
  };
};

/** Gzip-compressed when the client takes it; `vary` keeps caches from mixing the two forms. */
function send(asset: TextAsset, contentType: string, request: Headers, cacheControl?: string) {
  const headers = { 'content-type': contentType, vary: 'accept-encoding', ...(cacheControl ? { 'cache-control': cacheControl } : {}) };
  if (acceptsGzip(request['accept-encoding'])) {
    return { base64: asset.gzipBase64, headers: { ...headers, 'content-encoding': 'gzip' } };
  }
  return { json: asset.text, headers };
}
