import type { Slice, SliceContext } from '../slice.js';
import { openApiAssetOf } from './api-description.js';
import { docsOperations } from './operations.js';
import type { DocsPorts } from './ports.js';
import { docsRoutes } from './routes.js';

/** The API's OpenAPI description, generated from the rows it is given, and the Swagger UI page that shows it. */
export function docsSlice({ config }: SliceContext, ports: DocsPorts) {
  return {
    routes: docsRoutes,
    operations: docsOperations({ baseUriPath: config.baseUriPath, openApi: openApiAssetOf(ports.apiRows) }),
  } satisfies Slice<typeof docsRoutes>;
}
