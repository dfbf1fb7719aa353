import { defineSamples } from '../samples.js';
import { docsRoutes } from './routes.js';

/** The Swagger UI page and its files, as a browser asks for them. */
const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0' };
const COMPRESSED = { ...BROWSER, 'accept-encoding': 'gzip, deflate, br, zstd' };

export const docsSamples = defineSamples(docsRoutes, {
  'docs-openapi': { operation: 'getOpenApiDocument', status: 200 },
  'docs-page': { operation: 'getDocsPage', headers: { ...BROWSER, accept: 'text/html' }, status: 200 },
  'docs-styles': {
    operation: 'getSwaggerUiStyles',
    headers: { ...COMPRESSED, accept: 'text/css,*/*;q=0.1' },
    status: 200,
  },
  'docs-script': { operation: 'getSwaggerUiScript', headers: { ...COMPRESSED, accept: '*/*' }, status: 200 },
});
